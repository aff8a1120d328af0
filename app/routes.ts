import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/sign-out", "routes/auth.sign-out.ts"),
  route("pitch/:slug", "routes/pitch.tsx"),
  route("pitch/:slug/submit", "routes/pitch.submit.ts"),
  route("dashboard", "routes/dashboard.tsx"),
  route("my-projects", "routes/my-projects.tsx"),
  route("project/create", "routes/project-create.tsx"),
  route("project/:id/edit", "routes/project-edit.tsx"),
  route("project/:id/analytics", "routes/project-analytics.tsx"),
  route("project/:id/contacts.csv", "routes/project.contacts-csv.ts"),
  route("project/:id/leads", "routes/project-leads.tsx"),
  route("project/:id/leads.vcf", "routes/project.leads-vcf.ts"),
  route("project/:id/leads/settings", "routes/project-lead-settings.tsx"),
  route("project/:id/leads/:leadId/vcard.vcf", "routes/project.lead-vcf.ts"),
  route("project/:id/qr/:qrId/print.svg", "routes/project.qr-print.ts"),
  route("privacy", "routes/privacy.tsx"),
  route("terms", "routes/terms.tsx"),
  route("support", "routes/support.tsx"),

  // Stale paths from the spec's notes (DESIGN.md item 1) redirect permanently.
  route("p/:slug", "routes/redirects/pitch.ts"),
  route("projects/new", "routes/redirects/project-create.ts"),
  route("projects/:id/edit", "routes/redirects/project-edit.ts"),

  route("pledge-success", "routes/pledge-success.tsx"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("unsubscribe/one-click", "routes/unsubscribe.one-click.ts"),
  route("app-icon-generator", "routes/app-icon-generator.tsx"),

  // The installable site (decision 11): manifests and icons, drawn from app icon concept 1.
  route("manifest.webmanifest", "routes/manifest.ts"),
  route("pitch/:slug/manifest.webmanifest", "routes/pitch.manifest.ts"),
  route("app-icons/:file", "routes/app-icons.ts"),
  route("icons/:file", "routes/site-icons.ts"),
  route("favicon.svg", "routes/favicon.ts"),
  route("apple-touch-icon.png", "routes/apple-touch-icon.ts"),

  route("api/functions/submit-intro", "routes/api.functions.submit-intro.ts"),
  route("api/functions/subscribe-updates", "routes/api.functions.subscribe-updates.ts"),
  route("api/functions/track-scan", "routes/api.functions.track-scan.ts"),
  route("api/functions/handle-unsubscribe", "routes/api.functions.handle-unsubscribe.ts"),
  route("api/functions/generate-qr-code", "routes/api.functions.generate-qr-code.ts"),
  route("api/functions/generate-app-icon", "routes/api.functions.generate-app-icon.ts"),
  route("api/activity", "routes/api.activity.ts"),
  route("api/wall/:projectId/stream", "routes/api.wall.stream.ts"),
  route("api/*", "routes/api.not-found.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
