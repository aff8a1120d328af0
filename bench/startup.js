import { median, startServer } from "./support.js";

/** Cold start: a new process on an empty data directory (migrations and demo seed included) to the first 200 from /healthz. */
export default async function startup() {
  const runs = [];
  for (let i = 0; i < 3; i += 1) {
    const server = await startServer();
    runs.push(server.readyMs);
    await server.stop();
  }
  return { "cold start to first 200 from /healthz (median of 3, ms)": Math.round(median(runs)), runs: runs.map(Math.round).join(", ") };
}
