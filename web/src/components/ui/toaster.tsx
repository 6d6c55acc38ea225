import { lazy, Suspense } from "react";
import { useToasts } from "./toast-store.ts";

// Radix Toast and its collection helper are a fifth of the entry bundle; most visits to the
// public pages never show a toast, so the real toaster loads with the first one.
const RadixToaster = lazy(() => import("./toaster-radix.tsx"));

export function Toaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <RadixToaster />
    </Suspense>
  );
}
