import { Tooltip } from "radix-ui";
import { Spinner } from "../components/ui/spinner.tsx";
import { DashboardScreen } from "../features/dashboard/dashboard-screen.tsx";
import { useSession } from "../lib/session.tsx";

export default function DashboardPage() {
  const session = useSession();
  // RequireAuth only renders this page for a signed-in user; the guard keeps the types honest.
  if (session.status !== "authenticated") return <Spinner />;
  // Spec section 9: tooltip open delay 700 ms, skip delay 300 ms. Tooltips live in the signed-in
  // app only; provided here rather than in main.tsx so the landing bundle does not carry Radix's
  // positioning code (it is shared with the search help popover since issue 35).
  return (
    <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
      <DashboardScreen user={session.user} />
    </Tooltip.Provider>
  );
}
