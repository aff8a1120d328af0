import { redirect } from "react-router";
import type { Route } from "./+types/pitch";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/pitch/${encodeURIComponent(params.slug)}`, 301);
}
