import { lazy, type ReactNode, Suspense } from "react";
import { Redirect, Route, Switch } from "wouter";
import { Spinner } from "./components/ui/spinner.tsx";
import { useSession, useUnauthorizedRedirect } from "./lib/session.tsx";

const Landing = lazy(() => import("./pages/landing.tsx"));
const Login = lazy(() => import("./pages/login.tsx"));
const Signup = lazy(() => import("./pages/signup.tsx"));
const AuthCallback = lazy(() => import("./pages/auth-callback.tsx"));
const Logout = lazy(() => import("./pages/logout.tsx"));
const Dashboard = lazy(() => import("./pages/dashboard.tsx"));
const Pricing = lazy(() => import("./pages/pricing.tsx"));
const Terms = lazy(() => import("./pages/terms-of-service.tsx"));
const Privacy = lazy(() => import("./pages/privacy-policy.tsx"));
const NotFound = lazy(() => import("./pages/not-found.tsx"));

/** Signed-in people skip the public entry pages (spec section 2). */
function AnonymousOnly({ children, spinner = false }: { children: ReactNode; spinner?: boolean }) {
  const session = useSession();
  if (session.status === "loading") return spinner ? <Spinner /> : null;
  if (session.status === "authenticated") return <Redirect to="/dashboard" replace />;
  return children;
}

function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.status === "loading") return <Spinner />;
  if (session.status === "anonymous") return <Redirect to="/login" replace />;
  return children;
}

export function AppRoutes() {
  useUnauthorizedRedirect();
  return (
    <Suspense fallback={<Spinner />}>
      <Switch>
        <Route path="/">
          <AnonymousOnly spinner>
            <Landing />
          </AnonymousOnly>
        </Route>
        <Route path="/login">
          <AnonymousOnly>
            <Login />
          </AnonymousOnly>
        </Route>
        <Route path="/signup">
          <AnonymousOnly>
            <Signup />
          </AnonymousOnly>
        </Route>
        <Route path="/auth/callback" component={AuthCallback} />
        <Route path="/logout" component={Logout} />
        <Route path="/dashboard">
          <RequireAuth>
            <Dashboard />
          </RequireAuth>
        </Route>
        <Route path="/pricing" component={Pricing} />
        <Route path="/terms-of-service" component={Terms} />
        <Route path="/tos" component={Terms} />
        <Route path="/privacy-policy" component={Privacy} />
        <Route path="/privacy" component={Privacy} />
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
