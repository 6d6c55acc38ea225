import { Link } from "wouter";
import {
  DATA_RETENTIONS,
  DELETION_GRACE_DAYS,
  PRIVACY_SETTING_EFFECTS,
  RETENTION_LABELS,
} from "../../../contract/privacy-texts.ts";
import { LegalPage, type LegalSection } from "../features/public/legal-page.tsx";
import { CONTACT_EMAIL } from "../features/public/site-footer.tsx";

const SECTIONS: LegalSection[] = [
  {
    id: "what-we-store",
    title: "What we store",
    body: (
      <>
        <p>We keep only what Mailwise needs to work for you:</p>
        <ul>
          <li>
            <strong>Account identity:</strong> your name, email address and the Google or Microsoft account
            you signed in with.
          </li>
          <li>
            <strong>OAuth tokens:</strong> the access and refresh tokens for your connected Gmail and Outlook
            accounts, encrypted at rest. We never receive or store your passwords.
          </li>
          <li>
            <strong>Synced mail and AI analyses:</strong> the emails we sync from your accounts, and the
            sentiment, urgency, summary and category that our AI produces for them.
          </li>
          <li>
            <strong>Agent memories:</strong> what your personal AI agent learns about your email patterns,
            such as important contacts, tone and preferred replies.
          </li>
          <li>
            <strong>Usage and settings:</strong> your preferences, privacy settings, sign-in sessions (when
            they started and were last used) and how much AI work was done for you.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "how-we-use",
    title: "How we use your data",
    body: (
      <>
        <p>
          We use your data to provide Mailwise to you: to show your unified inbox, analyse and sort your
          email, draft replies, run your agent, scan for phishing and keep your calendar in view.
        </p>
        <p>
          We do not use your email to advertise to you, and we do not use it to train models for anyone else.
          Email content is not written to our logs.
        </p>
      </>
    ),
  },
  {
    id: "retention",
    title: "How long we keep it",
    body: (
      <>
        <p>You choose how long synced mail, analyses and agent memories are kept in your privacy settings:</p>
        <ul>
          {DATA_RETENTIONS.map((r) => (
            <li key={r}>{RETENTION_LABELS[r]}</li>
          ))}
        </ul>
        <p>{PRIVACY_SETTING_EFFECTS.dataRetention}</p>
      </>
    ),
  },
  {
    id: "deletion",
    title: "Deleting your account and data",
    body: (
      <>
        <p>You can delete your account from the privacy settings in two ways:</p>
        <ul>
          <li>
            <strong>Scheduled deletion</strong> with a {DELETION_GRACE_DAYS}-day grace period. You can cancel
            it at any time during those {DELETION_GRACE_DAYS} days and keep everything.
          </li>
          <li>
            <strong>Immediate deletion</strong>, which removes your account and data right away and cannot be
            undone.
          </li>
        </ul>
        <p>
          Either way, Mailwise revokes the access you granted at Google (Microsoft lets apps revoke nothing,
          so we discard its keys), stops mailbox notifications and removes every record it holds about you;
          the mail in your mailboxes stays. As our <Link href="/terms-of-service">Terms of Service</Link>{" "}
          state, account data is deleted within 30 days of termination.
        </p>
      </>
    ),
  },
  {
    id: "export",
    title: "Exporting your data",
    body: (
      <p>
        You can download your data at any time from the privacy settings. The export is a JSON file named with
        the date it was made (mailwise-export-YYYY-MM-DD.json) holding everything we keep about you: profile,
        connected accounts (never their keys), emails with their bodies and analyses, agent drafts, your agent
        with its preferences, memories and conversations, calendars and events, privacy settings, sessions
        (dates only) and AI usage.
      </p>
    ),
  },
  {
    id: "cookies",
    title: "Cookies and consent",
    body: (
      <>
        <p>
          We use essential cookies and browser storage to keep you signed in and to remember your choices.
          These are needed for Mailwise to work.
        </p>
        <p>
          On your first visit we ask about cookies. Your answer, accepted or declined, is remembered in your
          browser so we do not ask again. Mailwise sets no analytics or advertising cookies either way, and
          declining does not limit any feature.
        </p>
      </>
    ),
  },
  {
    id: "your-choices",
    title: "Your choices",
    body: (
      <>
        <p>
          <strong>We do not sell your data.</strong> Your privacy settings hold three choices. What each does,
          exactly as the code does it:
        </p>
        <ul>
          <li>
            <strong>Do not sell:</strong> {PRIVACY_SETTING_EFFECTS.doNotSell}
          </li>
          <li>
            <strong>Analytics opt-out:</strong> {PRIVACY_SETTING_EFFECTS.analyticsOptOut}
          </li>
          <li>
            <strong>Marketing opt-out:</strong> {PRIVACY_SETTING_EFFECTS.marketingOptOut}
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "sharing",
    title: "Who we share data with",
    body: (
      <p>
        We share data only with the providers you connect (Google and Microsoft), with service providers that
        host and run Mailwise under contracts that bind them to our instructions, and with authorities when
        the law requires it.
      </p>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: (
      <p>
        Connections are encrypted in transit, OAuth tokens are encrypted at rest, and access to production
        systems is limited to the people who need it. If a breach ever affects your data, we will tell you
        without undue delay.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Questions or requests about your data? Write to us at{" "}
        <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
      </p>
    ),
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated="November 1, 2026"
      intro={
        <p>
          What Mailwise stores, why, for how long, and how you stay in control. We never store your passwords
          and we never sell your data.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
