import { Link } from "wouter";
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
            <strong>Usage and settings:</strong> your preferences, achievements, leaderboard name and, if you
            allow it, anonymous analytics.
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
          <li>
            <strong>Minimal:</strong> 90 days.
          </li>
          <li>
            <strong>Standard:</strong> 2 years. This is the default.
          </li>
          <li>
            <strong>Extended:</strong> 7 years, for people who need a long archive.
          </li>
        </ul>
        <p>Data older than your chosen period is removed automatically.</p>
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
            <strong>Scheduled deletion</strong> with a 30-day grace period. You can cancel it at any time
            during those 30 days and keep everything.
          </li>
          <li>
            <strong>Immediate deletion</strong>, which removes your account and data right away and cannot be
            undone.
          </li>
        </ul>
        <p>
          As our <Link href="/terms-of-service">Terms of Service</Link> state, account data is deleted within
          30 days of termination.
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
        the date it was made, containing your account details, settings, analyses and agent memories.
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
          On your first visit we ask whether you accept optional cookies for anonymous analytics. Your answer,
          accepted or declined, is remembered in your browser so we do not ask again. Declining does not limit
          any feature.
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
          <strong>We do not sell your data.</strong> The do-not-sell setting in your privacy controls records
          that choice explicitly, and it stays on for as long as you want.
        </p>
        <p>You can also switch the following off at any time:</p>
        <ul>
          <li>
            <strong>Analytics:</strong> opt out of anonymous usage analytics.
          </li>
          <li>
            <strong>Marketing:</strong> opt out of product news and marketing email.
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
