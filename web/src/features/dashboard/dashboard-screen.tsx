import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { SessionUser } from "../../../../contract/auth.ts";
import { BUCKETS, type Bucket } from "../../../../contract/buckets.ts";
import type { Email } from "../../../../contract/mail.ts";
import type { HeldRequest } from "../../../../contract/outbox.ts";
import {
  emailKeys,
  markActionPainted,
  useAutoSync,
  useEmailStats,
  useRefreshEmailsListener,
  useSyncStatus,
} from "../../lib/mail-queries.ts";
import { AccountsDialog } from "../accounts/accounts-dialog.tsx";
import { AgentConfigDialog } from "../ai/agent-config-dialog.tsx";
import { BucketCard } from "../buckets/bucket-card.tsx";
import { BucketDialog } from "../buckets/bucket-dialog.tsx";
import { BucketsPanelBody } from "../buckets/buckets-panel.tsx";
import { useCalendarConnectReturn } from "../calendar/connect-return.ts";
import { ComposeDialog } from "../compose/compose-dialog.tsx";
import type { AnswerMode } from "../compose/compose-source.ts";
import { DraftsCard } from "../compose/drafts/drafts-card.tsx";
import { ScheduledCard } from "../compose/send-later/scheduled-card.tsx";
import { useReopenOnUndo } from "../compose/use-reopen-on-undo.ts";
import { rowConversation, useConversationActions } from "../conversations/conversation-api.ts";
import { FailedActionsBanner } from "../due-actions/failed-actions-banner.tsx";
import { AchievementsDialog } from "../game/achievements-dialog.tsx";
import { useNewBadgeToasts } from "../game/badge-watcher.ts";
import { useTimeZoneSync } from "../game/game-api.ts";
import { LeaderboardDialog } from "../game/leaderboard-dialog.tsx";
import { InboxSection } from "../inbox/inbox-list.tsx";
import { useUnifiedInbox } from "../inbox/use-unified-inbox.ts";
import { Celebration } from "../inbox-zero/celebration.tsx";
import { useInboxZeroEnding } from "../inbox-zero/ending.ts";
import { InboxZeroMode } from "../inbox-zero/inbox-zero-mode.tsx";
import { OfflineBanner } from "../installable/offline-banner.tsx";
import { useOpenEmailFromAddress } from "../installable/open-from-address.ts";
import { type Command, CommandPalette } from "../keyboard/command-palette.tsx";
import { type ShortcutAction, useShortcuts } from "../keyboard/shortcuts.ts";
import { ShortcutsDialog } from "../keyboard/shortcuts-dialog.tsx";
import { LiveStatus } from "../live/live-status.tsx";
import { useLiveInbox } from "../live/use-live-inbox.ts";
import { SmartArchiveDialog } from "../mail-actions/smart-archive-dialog.tsx";
import { useEmailActions } from "../mail-actions/use-email-actions.ts";
import { usePushMessages } from "../notifications/use-push-messages.ts";
import { FloatingPanel } from "../panels/floating-panel.tsx";
import { AnalyticsPanelBody, CalendarPanelBody } from "../panels/panel-bodies.tsx";
import { DeletionBanner } from "../privacy/deletion-banner.tsx";
import { PrivacyDialog } from "../privacy/privacy-dialog.tsx";
import { EmailReader } from "../reader/email-reader.tsx";
import { sendTimeZone } from "../snooze/snooze-api.ts";
import { SnoozeMenu } from "../snooze/snooze-menu.tsx";
import { SnoozedCard } from "../snooze/snoozed-card.tsx";
import { ActionItemsCard } from "./action-items.tsx";
import { DashboardHeader } from "./dashboard-header.tsx";
import { ProgressCard } from "./progress-card.tsx";
import { SyncBanner } from "./sync-banner.tsx";
import { WelcomePanel } from "./welcome-panel.tsx";

type PanelId = "buckets" | "calendar" | "analytics";
type ModalId =
  | "assistant"
  | "achievements"
  | "leaderboard"
  | "privacy"
  | "inboxZero"
  | "shortcuts"
  | "palette";
interface ComposeState {
  replyToId: string | null;
  /** A held mail taken back by Undo send. */
  initial?: HeldRequest | null;
  mode: AnswerMode;
  /** A draft at the provider reopened from the Drafts card (issue 36). */
  draftId?: string;
  /** A scheduled mail being edited from the Scheduled card (issue 37). */
  scheduled?: { id: string; sendAt: string };
}

const PANELS: Record<PanelId, { title: string; x: number; y: number; width: number }> = {
  buckets: { title: "Email Buckets", x: 24, y: 96, width: 420 },
  calendar: { title: "Calendar", x: 240, y: 80, width: 760 },
  analytics: { title: "Analytics Dashboard", x: 240, y: 120, width: 460 },
};

/** The signed-in home: header, welcome, progress, action items, unified inbox, buckets, panels. */
export function DashboardScreen({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  useRefreshEmailsListener();
  const inbox = useUnifiedInbox();
  const stats = useEmailStats();
  const sync = useSyncStatus();
  // One stream per tab while the dashboard is open: new mail and other tabs' changes arrive live.
  const live = useLiveInbox();
  const autoSync = useAutoSync();
  const actions = useEmailActions();
  const conversationActions = useConversationActions();
  useNewBadgeToasts(user.id);
  useTimeZoneSync();
  // A push while this tab is in front comes here from the service worker (issue 38).
  usePushMessages();

  const [panel, setPanel] = useState<PanelId | null>(null);
  const [modal, setModal] = useState<ModalId | null>(null);
  const [bucket, setBucket] = useState<Bucket | null>(null);
  const [readerId, setReaderId] = useState<string | null>(null);
  /** The conversation the `b` key is snoozing (its menu is open). */
  const [snoozeTarget, setSnoozeTarget] = useState<string | null>(null);
  // The person's zone is the browser's (issue 37): told once per page load, for server-side times.
  useEffect(() => {
    sendTimeZone().catch(() => undefined);
  }, []);
  const [compose, setCompose] = useState<ComposeState | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const inboxZeroEnd = useInboxZeroEnding();
  const searchRef = useRef<HTMLInputElement>(null);
  const inboxAnchor = useRef<HTMLDivElement>(null);

  /** Spec section 2: opening a panel clears the selected email, closes compose and the other panels. */
  const openPanel = (id: PanelId) => {
    setReaderId(null);
    inbox.setSelectedId(null);
    setCompose(null);
    setPanel(id);
  };

  useCalendarConnectReturn(() => openPanel("calendar"));
  // A mail notification's click lands on /dashboard?email=<id> (issue 38).
  useOpenEmailFromAddress(setReaderId);

  const findEmail = (id: string): Email | undefined =>
    inbox.emails.find((e) => e.id === id) ?? queryClient.getQueryData<Email>(emailKeys.detail(id));

  /** After an email leaves the list, the reader moves on to its neighbour (or closes). */
  const advanceReader = (id: string) => {
    if (readerId !== id) return;
    const index = inbox.emails.findIndex((e) => e.id === id);
    const next = index >= 0 ? (inbox.emails[index + 1] ?? inbox.emails[index - 1]) : undefined;
    setReaderId(next?.id ?? null);
    if (next) inbox.setSelectedId(next.id);
  };

  // Keyboard triage: the actions change the cache at once; the painted mark ends the budget.
  // A conversation row of several messages is archived or deleted whole (issue 35).
  const wholeConversation = (email: Email) => (rowConversation(email)?.count ?? 1) > 1;
  const archive = (email: Email) => {
    advanceReader(email.id);
    void (wholeConversation(email)
      ? conversationActions.archive(email.conversationId)
      : actions.archive(email));
    markActionPainted(queryClient);
  };
  const remove = (email: Email) => {
    advanceReader(email.id);
    void (wholeConversation(email)
      ? conversationActions.remove(email.conversationId)
      : actions.remove(email));
    markActionPainted(queryClient);
  };
  const toggleStar = (email: Email) => {
    void actions.setStarred(email, !email.isStarred);
    markActionPainted(queryClient);
  };

  const focusSearch = () => {
    setPanel(null);
    inboxAnchor.current?.scrollIntoView({ block: "start" });
    searchRef.current?.focus();
  };
  const browse = () => {
    inboxAnchor.current?.scrollIntoView({ block: "start" });
    if (!inbox.selected) inbox.move(1);
    else document.querySelector<HTMLElement>(`[data-email-id="${CSS.escape(inbox.selected.id)}"]`)?.focus();
  };
  const sync_ = () => autoSync.mutate();
  const openCompose = (replyToId: string | null = null, mode: AnswerMode = "reply") =>
    setCompose({ replyToId, mode });
  // Undo send gives the held mail back: compose reopens with it intact.
  useReopenOnUndo((initial) => setCompose({ replyToId: null, mode: "reply", initial }));
  const startInboxZero = () => {
    inboxZeroEnd.opened();
    setModal("inboxZero");
  };

  const onAction = (action: ShortcutAction): boolean => {
    const targetId = readerId ?? inbox.selected?.id ?? null;
    switch (action) {
      case "next":
      case "previous": {
        const id = inbox.move(action === "next" ? 1 : -1);
        if (readerId && id) setReaderId(id);
        return true;
      }
      case "open":
        if (!inbox.selected) return false;
        setReaderId(inbox.selected.id);
        return true;
      case "archive":
      case "delete":
      case "star": {
        const email = targetId ? findEmail(targetId) : undefined;
        if (!email) return false;
        if (action === "archive") archive(email);
        else if (action === "delete") remove(email);
        else toggleStar(email);
        return true;
      }
      case "snooze": {
        const email = targetId ? findEmail(targetId) : undefined;
        if (!email) return false;
        setSnoozeTarget(email.conversationId);
        return true;
      }
      case "reply":
        if (!targetId) return false;
        openCompose(targetId);
        return true;
      case "compose":
        openCompose();
        return true;
      case "back":
        if (readerId) setReaderId(null);
        else if (panel) setPanel(null);
        else inbox.setSelectedId(null);
        return true;
      case "search":
        focusSearch();
        return true;
      case "help":
        setModal("shortcuts");
        return true;
      case "palette":
        setModal((m) => (m === "palette" ? null : "palette"));
        return true;
    }
  };
  useShortcuts({ onAction, allowedModals: readerId ? 1 : 0 });

  const hasUnread = (stats.data?.unreadCount ?? 0) > 0;
  const commands: Command[] = [
    { id: "browse", label: "Browse Emails", keywords: "inbox list", run: browse },
    { id: "search", label: "Search emails", keywords: "find", shortcut: "/", run: focusSearch },
    { id: "compose", label: "Compose Email", keywords: "new write", shortcut: "c", run: () => openCompose() },
    { id: "sync", label: "Sync now", keywords: "refresh fetch", run: sync_ },
    { id: "buckets", label: "Open Email Buckets", keywords: "panel", run: () => openPanel("buckets") },
    ...BUCKETS.map((b) => ({
      id: `bucket-${b}`,
      label: `Open bucket: ${b[0]?.toUpperCase()}${b.slice(1)}`,
      keywords: "category",
      run: () => setBucket(b),
    })),
    {
      id: "analytics",
      label: "Open Analytics Dashboard",
      keywords: "stats",
      run: () => openPanel("analytics"),
    },
    { id: "calendar", label: "Open Calendar", keywords: "events", run: () => openPanel("calendar") },
    ...(hasUnread ? [{ id: "inbox-zero", label: "Start Inbox Zero", run: startInboxZero }] : []),
    { id: "achievements", label: "Achievements", keywords: "badges", run: () => setModal("achievements") },
    { id: "leaderboard", label: "Leaderboard", keywords: "rank", run: () => setModal("leaderboard") },
    {
      id: "privacy",
      label: "Privacy Settings",
      keywords: "data export delete",
      run: () => setModal("privacy"),
    },
    {
      id: "assistant",
      label: "AI Assistant Configuration",
      keywords: "agent",
      run: () => setModal("assistant"),
    },
    {
      id: "accounts",
      label: "Connected accounts",
      keywords: "settings gmail outlook",
      run: () => setAccountsOpen(true),
    },
    {
      id: "shortcuts",
      label: "Keyboard shortcuts",
      keywords: "help keys",
      shortcut: "?",
      run: () => setModal("shortcuts"),
    },
  ];

  return (
    <div className="min-h-screen bg-slate-50">
      <DashboardHeader
        onDashboard={() => {
          setPanel(null);
          window.scrollTo({ top: 0 });
        }}
        onSearch={focusSearch}
        onBuckets={() => openPanel("buckets")}
        onAnalytics={() => openPanel("analytics")}
        onCalendar={() => openPanel("calendar")}
        onSync={sync_}
        onSettings={() => setAccountsOpen(true)}
        syncing={autoSync.isPending || sync.syncing}
      />

      <main className="mx-auto grid max-w-7xl gap-4 px-2 *:min-w-0 py-4 sm:px-4 sm:py-6 lg:grid-cols-3">
        <div className="empty:hidden lg:col-span-3">
          <OfflineBanner />
        </div>
        <div className="empty:hidden lg:col-span-3">
          <DeletionBanner />
        </div>
        <LiveStatus state={live} className="lg:col-span-3" />
        <div className="empty:hidden lg:col-span-3">
          <FailedActionsBanner onReconnect={() => setAccountsOpen(true)} />
        </div>
        {sync.accounts.length > 0 || user.accounts.some((a) => a.status === "reauth_required") ? (
          <div className="grid gap-2 lg:col-span-3">
            <SyncBanner
              statuses={sync.accounts}
              accounts={user.accounts}
              onReconnect={() => setAccountsOpen(true)}
            />
          </div>
        ) : null}
        <div className="lg:col-span-2">
          <WelcomePanel
            user={user}
            hasUnread={hasUnread}
            actions={{
              onBrowse: browse,
              onAnalytics: () => openPanel("analytics"),
              onCompose: () => openCompose(),
              onInboxZero: startInboxZero,
              onAchievements: () => setModal("achievements"),
              onLeaderboard: () => setModal("leaderboard"),
              onPrivacy: () => setModal("privacy"),
              onCalendar: () => openPanel("calendar"),
            }}
          />
        </div>
        <ProgressCard />
        <div ref={inboxAnchor} className="min-w-0 scroll-mt-16 lg:col-span-2">
          <InboxSection ref={searchRef} inbox={inbox} accounts={user.accounts} onOpenEmail={setReaderId} />
        </div>
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-4">
          <ActionItemsCard onOpenEmail={setReaderId} />
          <DraftsCard onOpenDraft={(draftId) => setCompose({ replyToId: null, mode: "reply", draftId })} />
          <ScheduledCard
            onEdit={(item) =>
              setCompose({
                replyToId: null,
                mode: "reply",
                initial: item.request,
                scheduled: { id: item.id, sendAt: item.sendAt },
              })
            }
          />
          <SnoozedCard />
        </div>
        <section aria-labelledby="buckets-title" className="min-w-0 lg:col-span-3">
          <h2 id="buckets-title" className="mb-2 text-lg font-semibold text-slate-900">
            Buckets
          </h2>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {BUCKETS.map((b) => (
              <BucketCard key={b} bucket={b} onOpenBucket={setBucket} onOpenEmail={setReaderId} />
            ))}
          </div>
        </section>
      </main>

      {panel ? (
        <FloatingPanel
          key={panel}
          id={panel}
          title={PANELS[panel].title}
          width={PANELS[panel].width}
          defaultPosition={{ x: PANELS[panel].x, y: PANELS[panel].y }}
          onClose={() => setPanel(null)}
        >
          {panel === "buckets" ? (
            <BucketsPanelBody onOpenBucket={setBucket} onConfigureAssistant={() => setModal("assistant")} />
          ) : panel === "calendar" ? (
            <CalendarPanelBody />
          ) : (
            <AnalyticsPanelBody />
          )}
        </FloatingPanel>
      ) : null}

      <BucketDialog
        bucket={bucket}
        onOpenChange={(open) => (open ? undefined : setBucket(null))}
        onOpenEmail={setReaderId}
      />
      <EmailReader
        emailId={readerId}
        open={readerId !== null}
        onOpenChange={(open) => (open ? undefined : setReaderId(null))}
        onReply={(email, mode) => openCompose(email.id, mode)}
      />
      {snoozeTarget ? (
        <SnoozeMenu
          key={snoozeTarget}
          conversationId={snoozeTarget}
          label={null}
          open
          onOpenChange={(open) => (open ? undefined : setSnoozeTarget(null))}
          onSnoozed={() => setReaderId(null)}
        />
      ) : null}
      <ComposeDialog
        open={compose !== null}
        onOpenChange={(open) => (open ? undefined : setCompose(null))}
        replyToId={compose?.replyToId ?? null}
        initial={compose?.initial ?? null}
        mode={compose?.mode ?? "reply"}
        draftId={compose?.draftId ?? null}
        scheduled={compose?.scheduled ?? null}
      />
      {modal === "inboxZero" ? (
        <InboxZeroMode
          onClose={() => setModal(null)}
          onFinished={() => {
            // Spec section 4: the queue is done: the mode closes and its end shows; the server
            // says whether that is inbox zero (the celebration and chime) or mail is still unread.
            setModal(null);
            void inboxZeroEnd.finished();
          }}
        />
      ) : null}
      {inboxZeroEnd.ending ? <Celebration ending={inboxZeroEnd.ending} onDone={inboxZeroEnd.clear} /> : null}
      <SmartArchiveDialog />
      <AchievementsDialog
        open={modal === "achievements"}
        onOpenChange={(open) => setModal(open ? "achievements" : null)}
      />
      <LeaderboardDialog
        open={modal === "leaderboard"}
        onOpenChange={(open) => setModal(open ? "leaderboard" : null)}
      />
      <AgentConfigDialog
        open={modal === "assistant"}
        onOpenChange={(open) => setModal(open ? "assistant" : null)}
        userEmail={user.email}
      />
      <PrivacyDialog open={modal === "privacy"} onOpenChange={(open) => setModal(open ? "privacy" : null)} />
      <ShortcutsDialog
        open={modal === "shortcuts"}
        onOpenChange={(open) => setModal(open ? "shortcuts" : null)}
      />
      <CommandPalette
        open={modal === "palette"}
        onOpenChange={(open) => setModal(open ? "palette" : null)}
        commands={commands}
      />
      {/* Always mounted: a sign-in popup started here keeps being watched after the dialog closes. */}
      <AccountsDialog open={accountsOpen} onOpenChange={setAccountsOpen} />
    </div>
  );
}
