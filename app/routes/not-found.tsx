import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";

export function loader({ url, context }: Route.LoaderArgs) {
  context.logger.warn({ path: url.pathname }, "page not found");
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "Page not found" }];

export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-bold">Oops! Page not found</h1>
      <Link to="/" className="mt-6 inline-block font-medium text-brand-600 underline">
        Return to Home
      </Link>
    </main>
  );
}
