import type { Upload } from "../../../../../contract/compose.ts";
import { ApiError, responseError } from "../../../lib/api.ts";
import { readSessionToken } from "../../../lib/storage-keys.ts";

/**
 * POST /api/uploads with XMLHttpRequest, the one browser API that reports upload progress.
 * `onProgress` gets 0..1; the promise answers the Upload or fails with the server's sentence.
 */
export function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
): { done: Promise<Upload>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<Upload>((resolve, reject) => {
    xhr.open("POST", "/api/uploads");
    const token = readSessionToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const response = new Response(xhr.responseText, {
        status: xhr.status,
        headers: { "content-type": "application/json" },
      });
      if (xhr.status === 201) {
        response
          .json()
          .then((body) => resolve(body as Upload))
          .catch(() => reject(new ApiError(xhr.status, "The upload's answer could not be read.")));
        return;
      }
      // The same error handling as every other call (a 401 signs out, messages as sentences).
      responseError(response).then(reject, reject);
    };
    xhr.onerror = () =>
      reject(new ApiError(0, `"${file.name}" could not be uploaded. Check your connection and try again.`));
    xhr.onabort = () => reject(new DOMException("upload cancelled", "AbortError"));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
