import replyFrom from "@fastify/reply-from";
import Fastify from "fastify";

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * One port in front of several web processes, as a load balancer would be: each request goes to
 * the next upstream in turn, streamed both ways. Responses name their upstream in `x-served-by`
 * (web-1, web-2, ...), so a person or a test can see the requests spread.
 */
export async function startRoundRobinProxy(options: {
  host: string;
  port: number;
  upstreams: string[];
}): Promise<RunningProxy> {
  const proxy = Fastify({ logger: false });
  // Bodies pass through untouched, whatever their type or size: the web process parses and limits them.
  proxy.removeAllContentTypeParsers();
  proxy.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
  await proxy.register(replyFrom, { disableRequestLogging: true });

  const served = new WeakMap<object, number>();
  let next = 0;
  proxy.all("/*", (request, reply) =>
    reply.from(request.url, {
      getUpstream(req) {
        const index = next++ % options.upstreams.length;
        served.set(req, index);
        return options.upstreams[index] ?? "";
      },
      // The web processes trust one proxy hop (TRUST_PROXY_HOPS=1), so per-IP limits see the client.
      rewriteRequestHeaders: (req, headers) => ({
        ...headers,
        "x-forwarded-for": req.ip,
        "x-forwarded-proto": req.protocol,
      }),
      rewriteHeaders: (headers, req) => ({
        ...headers,
        "x-served-by": req ? `web-${(served.get(req) ?? 0) + 1}` : "",
      }),
    }),
  );
  await proxy.listen({ host: options.host, port: options.port });
  return { url: `http://${options.host}:${options.port}`, close: () => proxy.close() };
}
