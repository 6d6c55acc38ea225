import { useEffect } from "react";

// wouter dispatches these on client-side navigation (it patches pushState/replaceState).
const NAVIGATION_EVENTS = ["hashchange", "popstate", "pushState", "replaceState"] as const;

function scrollToCurrentHash(): void {
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (!id) return;
  // After React has committed the page that the navigation rendered.
  requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block: "start" }));
}

/**
 * Scrolls to the element named by the URL hash when the page mounts and after every navigation.
 * Pages load lazily, so the browser's own jump to the anchor happens before the target exists, and
 * a client-side navigation to "/pricing#faq" never triggers one at all.
 */
export function useScrollToHash(): void {
  useEffect(() => {
    scrollToCurrentHash();
    for (const name of NAVIGATION_EVENTS) window.addEventListener(name, scrollToCurrentHash);
    return () => {
      for (const name of NAVIGATION_EVENTS) window.removeEventListener(name, scrollToCurrentHash);
    };
  }, []);
}
