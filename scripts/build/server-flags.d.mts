/** Types of server-flags.mjs (plain JavaScript so that `npm start` needs no TypeScript loader). */

/** Node options every Mailwise server process starts with. */
export const SERVER_NODE_FLAGS: readonly string[];

/** Environment every Mailwise server process starts with (glibc tunables). */
export const SERVER_ENV: Readonly<Record<string, string>>;
