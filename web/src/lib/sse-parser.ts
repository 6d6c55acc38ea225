/** One Server-Sent Event as the stream's text spells it. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Parses a Server-Sent Events stream fed in chunks (the WHATWG format: `field: value` lines, a
 * blank line ends an event, `:` lines are comments). Bounded: a line past `maxLine` characters
 * (our server sends none) drops the buffer rather than growing without end.
 */
export function createSseParser(onEvent: (event: SseEvent) => void, maxLine = 4 * 1024 * 1024) {
  let buffer = "";
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0 || event) onEvent({ id, event: event || "message", data: data.join("\n") });
      event = "";
      data = [];
      id = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
  };
  return (chunk: string) => {
    buffer += chunk;
    let at = buffer.search(/\r\n|\r|\n/);
    while (at >= 0) {
      // A CR at the end may be half of a CRLF still on its way.
      if (at === buffer.length - 1 && buffer[at] === "\r") break;
      const newline = buffer.startsWith("\r\n", at) ? 2 : 1;
      line(buffer.slice(0, at));
      buffer = buffer.slice(at + newline);
      at = buffer.search(/\r\n|\r|\n/);
    }
    if (buffer.length > maxLine) buffer = "";
  };
}
