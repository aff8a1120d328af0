import type { AppConfig } from "~/config.server";
import { openDatabase, type AppDatabase } from "~/db/client.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createAuth, type Auth } from "~/modules/auth/auth.server";
import { seedDemoProject } from "~/modules/demo/seed.server";
import type { Logger } from "~/modules/logging/logger.server";
import { createToastCookie, type ToastCookie } from "~/modules/toast/toast.server";

/** Everything a request handler needs, created once per process. */
export type AppServices = {
  config: AppConfig;
  database: AppDatabase;
  auth: Auth;
  logger: Logger;
  toastCookie: ToastCookie;
};

export async function startServices(config: AppConfig, logger: Logger): Promise<AppServices> {
  const database = openDatabase(config.database);
  const applied = await migrateToLatest(database.db.withoutPlugins());
  if (applied.length) logger.info({ migrations: applied }, "database migrated");
  if (await seedDemoProject(database.db)) logger.info({ slug: "demo-project" }, "demo project seeded");
  const auth = createAuth({ config, db: database.db.withoutPlugins(), dialect: database.dialect });
  const toastCookie = createToastCookie(config.authSecret, config.publicUrl.startsWith("https://"));
  return { config, database, auth, logger, toastCookie };
}

export async function stopServices(services: AppServices): Promise<void> {
  await services.database.close();
}
