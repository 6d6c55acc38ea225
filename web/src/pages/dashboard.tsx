import { Spinner } from "../components/ui/spinner.tsx";
import { DashboardScreen } from "../features/dashboard/dashboard-screen.tsx";
import { useSession } from "../lib/session.tsx";

export default function DashboardPage() {
  const session = useSession();
  // RequireAuth only renders this page for a signed-in user; the guard keeps the types honest.
  if (session.status !== "authenticated") return <Spinner />;
  return <DashboardScreen user={session.user} />;
}
