import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { CookieNotice } from "./components/cookie-notice.tsx";
import { ErrorBoundary } from "./components/error-boundary.tsx";
import { Toaster } from "./components/ui/toaster.tsx";
import { createQueryClient } from "./lib/query-client.ts";
import { AppRoutes } from "./routes.tsx";
import "./index.css";

const queryClient = createQueryClient();
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <AppRoutes />
        <CookieNotice />
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);
