import { redirect } from "react-router";

export function loader() {
  return redirect("/project/create", 301);
}
