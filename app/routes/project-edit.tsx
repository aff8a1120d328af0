import { PagePlaceholder } from "~/components/page-placeholder";
import { requireSessionUser } from "~/modules/auth/session.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-edit";

export const meta: Route.MetaFunction = () => [{ title: `Edit Project · ${PRODUCT_NAME}` }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireSessionUser(context.services.auth, request);
  return { email: user.email };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PagePlaceholder title="Edit Project">Signed in as {loaderData.email}.</PagePlaceholder>;
}
