import type { MediaType, UploadResponse } from "@parlons/contract";
import { API_BASE, getAccessToken, refreshAccessToken } from "./api";
import { ApiError } from "./api-error";

/**
 * `POST /v1/medias/file/upload` (multipart `file` + `type`) through XMLHttpRequest, the
 * only browser API that reports upload progress. One retry after a token refresh on 401.
 */
export async function uploadMedia(
  file: File,
  type: MediaType,
  onProgress?: (percent: number) => void,
  path = "/v1/medias/file/upload",
): Promise<UploadResponse["data"]> {
  const send = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `${API_BASE}${path}`);
      xhr.withCredentials = true;
      const token = getAccessToken();
      if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.(Math.round((event.loaded / event.total) * 100));
      };
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // not JSON
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new ApiError(0, "NETWORK_ERROR", "Network error"));
      const form = new FormData();
      form.append("type", type);
      form.append("file", file, file.name);
      xhr.send(form);
    });

  let res = await send();
  if (res.status === 401 && (await refreshAccessToken())) res = await send();
  if (res.status >= 200 && res.status < 300) return (res.body as UploadResponse).data;
  const err = (res.body ?? {}) as { code?: string; message?: string; errors?: Record<string, string[]> };
  throw new ApiError(
    res.status,
    err.code ?? `HTTP_${res.status}`,
    err.message ?? "Upload failed",
    err.errors,
  );
}

/** The spec's stored form of an upload: `path:duration` when there is a duration. */
export function uploadValue(result: Pick<UploadResponse["data"], "file_path" | "audioDuration">): string {
  return result.audioDuration !== undefined
    ? `${result.file_path}:${result.audioDuration}`
    : result.file_path;
}

/** Splits `path:duration` back. */
export function parseUploadValue(value: string | null | undefined): {
  path: string;
  duration: number | null;
} {
  if (!value) return { path: "", duration: null };
  const match = /^(.*):(\d+(?:\.\d+)?)$/.exec(value);
  return match ? { path: match[1] as string, duration: Number(match[2]) } : { path: value, duration: null };
}
