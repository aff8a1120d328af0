import type { Route } from "./+types/api.not-found";

function notFound(request: Request, logger: Route.LoaderArgs["context"]["logger"]) {
  logger.warn({ path: new URL(request.url).pathname, method: request.method }, "api path not found");
  return Response.json({ error: "Not found" }, { status: 404 });
}

export function loader({ request, context }: Route.LoaderArgs) {
  return notFound(request, context.logger);
}

export function action({ request, context }: Route.ActionArgs) {
  return notFound(request, context.logger);
}
