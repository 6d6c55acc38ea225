import { createDecipheriv, createECDH, type ECDH, hkdfSync } from "node:crypto";

/**
 * The user agent's side of Web Push encryption: RFC 8291 (message encryption for Web Push) over
 * RFC 8188's aes128gcm content coding, written with node:crypto alone so the emulator checks the
 * app's encryption independently of the library that produced it.
 */

export class PushDecryptError extends Error {
  override name = "PushDecryptError";
}

/** A subscription's keys as a browser holds them: the P-256 pair and the 16-byte auth secret. */
export interface UserAgentKeys {
  ecdh: ECDH;
  /** Uncompressed point, 65 bytes (the subscription's p256dh). */
  publicKey: Buffer;
  /** 16 random bytes (the subscription's auth). */
  authSecret: Buffer;
}

export function createUserAgentKeys(authSecret: Buffer): UserAgentKeys {
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  return { ecdh, publicKey, authSecret };
}

const HEADER_FIXED = 16 + 4 + 1;
const TAG = 16;

/**
 * Decrypts an aes128gcm body. Header: salt (16) | record size (uint32) | key id length (1) | key id,
 * where the key id is the application server's ephemeral public key (RFC 8291 section 4).
 */
export function decryptPushBody(body: Buffer, keys: UserAgentKeys): Buffer {
  if (body.length < HEADER_FIXED) throw new PushDecryptError("body shorter than the aes128gcm header");
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  if (idLength !== 65) throw new PushDecryptError("key id is not a P-256 public key");
  if (recordSize < TAG + 2) throw new PushDecryptError("record size too small");
  const asPublic = body.subarray(HEADER_FIXED, HEADER_FIXED + idLength);
  const records = body.subarray(HEADER_FIXED + idLength);
  if (records.length === 0) throw new PushDecryptError("no records");

  let shared: Buffer;
  try {
    shared = keys.ecdh.computeSecret(asPublic);
  } catch {
    throw new PushDecryptError("key id is not a point on P-256");
  }
  // RFC 8291 section 3.4: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32)
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), keys.publicKey, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, keys.authSecret, keyInfo, 32));
  // RFC 8188 section 2.2 and 2.3: the content key and the nonce base from the salt.
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonceBase = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));

  const out: Buffer[] = [];
  const count = Math.ceil(records.length / recordSize);
  for (let seq = 0; seq < count; seq++) {
    const record = records.subarray(seq * recordSize, (seq + 1) * recordSize);
    if (record.length <= TAG) throw new PushDecryptError("record without content");
    const nonce = Buffer.from(nonceBase);
    // The record's sequence number is XORed into the end of the nonce (its last four bytes suffice
    // for any body this service accepts; JavaScript's ^ works on 32 bits).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(record.subarray(0, record.length - TAG)), decipher.final()]);
    } catch {
      throw new PushDecryptError("authentication failed: wrong keys or a damaged body");
    }
    // Padding: the content, then a delimiter (2 on the last record, 1 before), then zeros.
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    const last = seq === count - 1;
    if (end < 0 || plain[end] !== (last ? 2 : 1)) throw new PushDecryptError("bad padding delimiter");
    out.push(plain.subarray(0, end));
  }
  return Buffer.concat(out);
}
