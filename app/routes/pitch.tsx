import { data } from "react-router";
import { getSessionUser } from "~/modules/auth/session.server";
import { findViewableProjectBySlug } from "~/modules/projects/projects.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/pitch";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { auth, database } = context.services;
  const viewer = await getSessionUser(auth, request);
  const project = await findViewableProjectBySlug(database.db, params.slug, viewer?.id ?? null);
  if (!project) return data({ project: null }, { status: 404 });
  return {
    project: {
      title: project.title,
      oneLiner: project.one_liner,
      status: project.status,
      metrics: project.metrics,
    },
  };
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => {
  const project = loaderData?.project;
  if (!project) return [{ title: `Project not found · ${PRODUCT_NAME}` }];
  return [
    { title: `${project.title} · ${PRODUCT_NAME}` },
    { name: "description", content: project.oneLiner },
    { property: "og:title", content: project.title },
    { property: "og:description", content: project.oneLiner },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: project.title },
    { name: "twitter:description", content: project.oneLiner },
  ];
};

export default function PitchPage({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  if (!project) {
    return (
      <main className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">Project not found</h1>
        <p className="mt-3 text-slate-600">This project doesn&apos;t exist or has been removed.</p>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      {project.status === "draft" ? (
        <p className="mb-4 rounded-md bg-amber-100 px-3 py-2 text-sm font-medium text-amber-900">Draft: only you can see this page.</p>
      ) : null}
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{project.title}</h1>
      <p className="mt-3 text-lg text-slate-600">{project.oneLiner}</p>
      {project.metrics.length ? (
        <ul className="mt-5 flex flex-wrap gap-2">
          {project.metrics.map((metric) => (
            <li key={`${metric.label}-${metric.value}`} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-700">
              <span className="font-semibold">{metric.value}</span> {metric.label}
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}
