import { Transform, type TransformCallback } from "node:stream";

/** How much of the answer may come before the "data" value (Gmail sends attachmentId and size). */
const MAX_PREFIX_CHARS = 64 * 1024;
const DATA_KEY = /"data"\s*:\s*"/;

/**
 * Decodes the base64url "data" string of a Gmail attachments.get answer ({attachmentId, size,
 * data}) while it arrives: memory stays at one network chunk, not the whole file and its
 * 4/3-sized text. The value is base64url by the API's contract, so it has no escapes and ends at
 * the next quote; anything else fails the stream.
 */
export class JsonDataDecoder extends Transform {
  #prefix = "";
  #inData = false;
  #done = false;
  /** Base64 characters held back until a multiple of 4 arrived. */
  #carry = "";

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.#take(chunk.toString("latin1"));
      callback();
    } catch (err) {
      callback(err as Error);
    }
  }

  #take(chunk: string): void {
    if (this.#done) return;
    let text = chunk;
    if (!this.#inData) {
      this.#prefix += text;
      const match = DATA_KEY.exec(this.#prefix);
      if (match === null) {
        if (this.#prefix.length > MAX_PREFIX_CHARS) throw new Error("no data in the attachment answer");
        return;
      }
      this.#inData = true;
      text = this.#prefix.slice(match.index + match[0].length);
      this.#prefix = "";
    }
    const end = text.indexOf('"');
    const piece = this.#carry + (end === -1 ? text : text.slice(0, end));
    if (!/^[A-Za-z0-9_\-=]*$/.test(piece)) throw new Error("the attachment data is not base64url");
    const whole = end === -1 ? piece.length - (piece.length % 4) : piece.length;
    this.#carry = piece.slice(whole);
    if (end !== -1) this.#done = true;
    if (whole > 0) this.push(Buffer.from(piece.slice(0, whole), "base64url"));
  }

  override _flush(callback: TransformCallback): void {
    callback(this.#done ? null : new Error("the attachment answer ended early"));
  }
}
