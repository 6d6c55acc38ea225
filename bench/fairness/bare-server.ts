/**
 * The control of flood.ts: a bare node:http server that answers every request with `bytes` bytes,
 * as large as a list answer, and nothing else. A's flood sent here instead of to Mailwise shows
 * what the flood costs B through the machine alone (the flood client's CPU and the kernel's
 * connection work on the same cores) rather than through the server B talks to.
 *
 *   npx tsx bench/fairness/bare-server.ts <bytes>   (prints its port)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const body = Buffer.alloc(Number(process.argv[2] ?? 45_000), "a");
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  console.log(String((server.address() as AddressInfo).port));
});
