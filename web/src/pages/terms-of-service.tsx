import { Link } from "wouter";
import { LegalPage, type LegalSection } from "../features/public/legal-page.tsx";
import { CONTACT_EMAIL } from "../features/public/site-footer.tsx";

const SECTIONS: LegalSection[] = [
  {
    id: "agreement",
    title: "Agreement to these terms",
    body: (
      <p>
        These Terms of Service govern your use of Mailwise, including the website, the web application and any
        related services. By creating an account or using Mailwise you agree to these terms. If you use
        Mailwise on behalf of an organisation, you confirm that you may accept them for that organisation.
      </p>
    ),
  },
  {
    id: "service",
    title: "The service",
    body: (
      <>
        <p>
          Mailwise is an email client that connects your Gmail and Outlook accounts into one inbox and adds AI
          features: analysis of each email, suggested reply drafts, help writing and improving emails, a
          personal AI agent, sorting into buckets, an Inbox Zero mode, achievements, a leaderboard, a calendar
          and privacy controls.
        </p>
        <p>
          We keep improving Mailwise, so features may change over time. We will tell you in advance about
          changes that take away a significant part of a paid plan.
        </p>
      </>
    ),
  },
  {
    id: "accounts",
    title: "Your account and connected mailboxes",
    body: (
      <>
        <p>
          You sign in with Google or Microsoft using OAuth 2.0. We never ask for, see or store your email
          passwords. You can connect several accounts, and you may only connect mailboxes that you are
          entitled to use.
        </p>
        <p>
          You are responsible for activity under your account. Tell us promptly at{" "}
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> if you believe someone has accessed it
          without your permission. You can revoke Mailwise's access at any time in your Google or Microsoft
          account settings.
        </p>
      </>
    ),
  },
  {
    id: "trial-and-billing",
    title: "Free trial, plans and billing",
    body: (
      <>
        <p>
          New accounts start with a <strong>14-day free trial</strong>. No credit card is required to sign up,
          and the trial does not turn into a paid subscription unless you choose a plan.
        </p>
        <ul>
          <li>Personal costs $2.99 per month or $17.94 per year.</li>
          <li>Professional costs $10 per work email per month or $96 per year.</li>
          <li>Enterprise pricing is agreed individually with our sales team.</li>
        </ul>
        <p>
          Subscriptions renew automatically at the end of each billing period until cancelled. You can cancel
          at any time; the cancellation takes effect at the end of the period already paid. Current prices are
          always shown on our <Link href="/pricing">pricing page</Link>.
        </p>
      </>
    ),
  },
  {
    id: "acceptable-use",
    title: "Acceptable use",
    body: (
      <>
        <p>You agree not to use Mailwise to:</p>
        <ul>
          <li>send spam, phishing messages or malware, or harass other people;</li>
          <li>break the law or the terms of your email provider;</li>
          <li>probe, overload or interfere with our systems, or get around usage limits;</li>
          <li>access another person's mailbox or data without permission.</li>
        </ul>
        <p>
          We may suspend accounts that break these rules, and will tell you why unless the law forbids it.
        </p>
      </>
    ),
  },
  {
    id: "ai-features",
    title: "AI features and your content",
    body: (
      <>
        <p>
          Your emails remain yours. You give us permission to process them only to provide Mailwise to you: to
          sync, display, analyse and sort your mail, prepare drafts and keep your agent's memory.
        </p>
        <p>
          AI output such as summaries, urgency ratings, phishing warnings and drafts can be wrong. Review
          drafts before you send them; Mailwise does not send email on your behalf unless you tell it to.
        </p>
      </>
    ),
  },
  {
    id: "third-parties",
    title: "Google, Microsoft and other third parties",
    body: (
      <p>
        Mailwise relies on the Gmail and Microsoft Graph interfaces. Their availability, limits and terms are
        outside our control, and an outage or change on their side may affect Mailwise. Your use of those
        accounts remains subject to Google's and Microsoft's own terms.
      </p>
    ),
  },
  {
    id: "termination",
    title: "Termination and deletion of your data",
    body: (
      <>
        <p>
          You may close your account at any time from the privacy settings in the app. We may terminate an
          account that seriously or repeatedly breaks these terms.
        </p>
        <p>
          <strong>Account data is deleted within 30 days of termination.</strong> This includes synced email,
          AI analyses, agent memories and the OAuth tokens of your connected accounts. Before you leave, you
          can download your data as a JSON file. Details are in our{" "}
          <Link href="/privacy-policy">Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: "disclaimers",
    title: "Disclaimers and liability",
    body: (
      <>
        <p>
          We work hard to keep Mailwise secure and available, but we provide it "as is" and cannot promise
          that it will be free of errors or interruptions.
        </p>
        <p>
          To the extent the law allows, we are not liable for indirect or consequential losses, and our total
          liability for any claim is limited to the amount you paid us in the twelve months before the claim.
          Nothing in these terms limits rights you have as a consumer that cannot be waived.
        </p>
      </>
    ),
  },
  {
    id: "changes",
    title: "Changes to these terms",
    body: (
      <p>
        If we change these terms in a way that matters, we will tell you by email or in the app at least 30
        days before the change takes effect. If you do not agree, you can close your account before then.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Questions about these terms? Write to us at <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
      </p>
    ),
  },
];

export default function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      updated="November 1, 2026"
      intro={
        <p>
          The rules for using Mailwise, written to be read. In short: your email stays yours, you can try
          everything free for 14 days with no credit card, and account data is deleted within 30 days of
          termination.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
