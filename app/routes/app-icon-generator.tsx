import { IconGeneratorView } from "~/components/icon-generator/icon-generator-view";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/app-icon-generator";

/** The developer tool. Open to everyone: section 6 sends only the founder screens to /auth. */
export const meta: Route.MetaFunction = () => [{ title: `App Icon Generator · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export default function AppIconGenerator() {
  return <IconGeneratorView />;
}
