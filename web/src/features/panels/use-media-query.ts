import { useSyncExternalStore } from "react";

/** True while the media query matches (e.g. a phone-width screen). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Phones get full-screen sheets instead of floating panels. */
export const PHONE_QUERY = "(max-width: 639px)";
