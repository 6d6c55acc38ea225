import net from "node:net";

/** Asks the OS for an unused port, for servers whose public URL must be known before they start. */
export function freePort(): Promise<number> {
  return reservePort().then(async (r) => {
    await r.release();
    return r.port;
  });
}

/** A port held open until the server that needs it is about to listen. */
export interface PortReservation {
  port: number;
  release(): Promise<void>;
}

/**
 * Holds an unused port until `release()`. A port found and let go at once can be handed to another
 * test file's server while this one is still starting its emulator (EADDRINUSE in CI); held, it
 * cannot, so the gap shrinks to the moment between release and listen.
 */
export function reservePort(): Promise<PortReservation> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      resolve({ port, release: () => new Promise<void>((done) => srv.close(() => done())) });
    });
  });
}
