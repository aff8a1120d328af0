// Loaded into the app's process with `node --import` by the send-now bench (never by the app itself): measures the
// event loop's delay with perf_hooks and, on SIGUSR2, writes what it saw since the last signal to the file named by
// EVENT_LOOP_PROBE_FILE, then starts a new measurement.
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.EVENT_LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.on("SIGUSR2", () => {
    const ms = (ns) => Math.round((ns / 1e6) * 10) / 10;
    fs.writeFileSync(file, JSON.stringify({ maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)), meanMs: ms(histogram.mean) }));
    histogram.reset();
  });
}
