import { redirect } from "react-router";
import type { Route } from "./+types/project-edit";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/project/${encodeURIComponent(params.id)}/edit`, 301);
}
