// A TCP balancer as a tester would put in front of several instances: each new connection goes to the next
// instance in turn. Run as its own process (`node bench/round-robin.js PORT TARGET_PORT...`), so that its work
// is neither the benchmark's nor any instance's.
import net from "node:net";

const [port, ...targets] = process.argv.slice(2).map(Number);
let next = 0;
const server = net.createServer((client) => {
  const upstream = net.connect(targets[next++ % targets.length], "127.0.0.1");
  client.pipe(upstream).pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
});
server.listen(port, "127.0.0.1", () => console.log("ready"));
