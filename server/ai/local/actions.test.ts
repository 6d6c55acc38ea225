import { describe, expect, it } from "vitest";
import { analyzeEmail } from "./analyze.ts";
import type { AnalyzerInput } from "./types.ts";

/** Actions that fit the mail, and none that push compliance on risky mail (issue 18). */

const NOW = new Date("2025-04-07T09:00:00Z"); // a Monday
const COMPLIANCE =
  /^(reply|respond|answer|pay|click|confirm|call|approve|scan|buy|send|transfer|open|download|sign|update)/i;

function analyse(partial: Partial<AnalyzerInput> & { bodyText: string }, context = {}) {
  return analyzeEmail(
    {
      from: { name: "Mia Santos", address: "mia.santos@lakeside-print.com" },
      subject: "Hello",
      bodyHtml: null,
      receivedAt: NOW,
      ...partial,
    },
    { userAddresses: ["jo@river-tools.com"], ...context },
  );
}

describe("suggested actions", () => {
  it("never pushes compliance on risky mail, and pressure does not raise urgency or importance", () => {
    const scam = analyse(
      {
        from: { name: "Jo's CEO", address: "ceo.rivertools@gmail.com" },
        subject: "URGENT - need this today",
        bodyText:
          "I need you to buy 5 Apple gift cards right now for a client, $200 each. Send me the codes by 3pm today. Keep it confidential.",
      },
      { vipContacts: ["ceo.rivertools@gmail.com"] },
    );
    expect(scam.security.verdict).not.toBe("safe");
    expect(scam.suggestedActions.length).toBeGreaterThan(0);
    for (const action of scam.suggestedActions) expect(action).not.toMatch(COMPLIANCE);
    expect(scam.urgency).not.toBe("high");
    expect(scam.importance).toBeLessThanOrEqual(4);
    expect(scam.responseTime).toBe("No response needed");
    expect(scam.newMemories).toEqual([]);
  });

  it("answers a reschedule request instead of archiving it", () => {
    const r = analyse({
      subject: "Thursday",
      bodyText: "Hi Jo,\n\nCould we move Thursday's review to Friday at 11? Something came up.\n\nMia",
    });
    expect(r.suggestedActions[0]).toMatch(/^Reply to Mia about the new time/);
    expect(r.suggestedActions.join(" ")).not.toMatch(/Archive/);
    expect(r.responseTime).not.toBe("No response needed");
  });

  it("acknowledges a complaint", () => {
    const r = analyse({
      from: { name: "Omar Haddad", address: "omar.haddad@gmail.com" },
      subject: "Order 7781 arrived broken",
      bodyText:
        "This is the second time my order arrived damaged. I am really disappointed and want a full refund.",
    });
    expect(r.suggestedActions).toContain("Reply to Omar to acknowledge the complaint");
    expect(r.suggestedActions).toContain("Sort out the refund or replacement Omar asks for");
    expect(r.responseTime).not.toBe("No response needed");
  });

  it("names the task and the deadline of an IT notice, not archive", () => {
    const r = analyse({
      from: { name: "River IT", address: "it-support@river-tools.com" },
      subject: "Your password expires on Friday",
      bodyText: "Your password expires on Friday. Please change it before then in the self-service portal.",
    });
    expect(r.suggestedActions[0]).toMatch(/^Change your password .*before Friday/);
    expect(r.suggestedActions.join(" ")).not.toMatch(/Archive/);
    expect(r.responseTime).not.toBe("No response needed");
  });

  it("never suggests a reply to a no-reply notification", () => {
    const r = analyse({
      from: { name: "Parcel Service", address: "no-reply@parcels.example" },
      subject: "Your parcel is out for delivery",
      bodyText: "Your parcel is out for delivery today. Please confirm someone is home.",
    });
    for (const action of r.suggestedActions) expect(action).not.toMatch(/^(reply|confirm)/i);
  });

  it("finds the date of a notice's 'before then' and names the notice's own instruction", () => {
    const r = analyse({
      from: { name: "River IT", address: "it-support@river-tools.com" },
      subject: "Multi-factor sign-in starts Thursday",
      bodyText:
        "From Thursday we require multi-factor authentication. Please set up the Authenticator app before then.",
    });
    expect(r.suggestedActions[0]).toBe("Set up the Authenticator app before Thursday");
    expect(r.responseTime).not.toBe("No response needed");
  });

  it("reads 'in 3 days' as a deadline and opens the task from a sentence-initial verb", () => {
    const r = analyse({
      from: { name: "HR", address: "hr-noreply@river-tools.com" },
      subject: "Benefits enrolment closes in 3 days",
      bodyText: "Open enrolment closes in 3 days. Log in to the HR portal and choose your plan.",
    });
    expect(r.suggestedActions[0]).toMatch(/within 3 days$/);
    expect(r.suggestedActions.join(" ")).not.toMatch(/Archive/);
  });

  it("reads 'within 48 hours' as a deadline, with a host name kept whole in the task", () => {
    const r = analyse({
      from: { name: "Mailhost Admin", address: "no-reply@mailhost.example" },
      subject: "Action required: verify river-tools.com within 48 hours",
      bodyText:
        "The domain check for river-tools.com is incomplete. Add the TXT record to your DNS within 48 hours, or outbound mail will be paused.",
    });
    expect(r.responseTime).toBe("Within 2 days");
    expect(r.suggestedActions.join(" ")).toMatch(/river-tools\.com/);
    expect(r.suggestedActions.join(" ")).not.toMatch(/Archive/);
  });

  it("treats an invoice with a due date from a billing address as a task", () => {
    const r = analyse({
      from: { name: "Lakeside Billing", address: "billing@lakeside-print.com" },
      subject: "Invoice 2231",
      bodyText: "Attached is invoice 2231 for March, $1,250.00, due April 30.",
    });
    expect(r.suggestedActions.join(" ")).not.toMatch(/Archive/);
    expect(r.responseTime).not.toBe("No response needed");
  });

  it("answers requests put indirectly", () => {
    for (const bodyText of [
      "I'd appreciate it if you could send me the signed copy when you get a chance.",
      "Send me your slides for Thursday when they're ready.",
      "It would be great to have your comments before I send it to the client.",
      "The supplier agreement still needs your signature. Yours is the last one missing.",
    ]) {
      const r = analyse({ subject: "Draft", bodyText });
      expect(r.suggestedActions[0]).toBe("Reply to Mia about the request");
      expect(r.responseTime).not.toBe("No response needed");
    }
  });

  it("never replies to a dotted no.reply sender, even when it gives an instruction", () => {
    const r = analyse({
      from: { name: "Bank", address: "no.reply.alerts@bank.example" },
      subject: "Your statement is ready",
      bodyText: "Your February statement is now available. Sign in to view it.",
    });
    for (const action of r.suggestedActions) expect(action).not.toMatch(/^(reply|confirm)/i);
  });

  describe("asks put less directly (issue 18, part 3)", () => {
    const archiveOnly = (r: ReturnType<typeof analyse>) =>
      r.responseTime === "No response needed" || r.suggestedActions.some((a) => /^Archive/.test(a));

    it("answers a question that opens with the reader's name", () => {
      const r = analyse({
        bodyText: "Jo - which file formats does the export support now? Legal wants to know.",
      });
      expect(r.suggestedActions.some((a) => /^Reply/.test(a))).toBe(true);
      expect(archiveOnly(r)).toBe(false);
    });

    it("takes 'it would help to have ... from you' for a request", () => {
      const r = analyse({
        bodyText:
          "Hi Jo,\n\nIt would help a lot to have two slides from you on the pricing work for the board pack.\n\nMia",
      });
      expect(archiveOnly(r)).toBe(false);
    });

    it("gives the deadline of notices that say what is outstanding or what is lost after a date", () => {
      const outstanding = analyse({
        from: { name: "People Team", address: "people@river-tools.com" },
        subject: "Reminder: self-review due Friday",
        bodyText: "Your self-review has not been submitted yet. Your manager cannot start until it is.",
      });
      const expiring = analyse({
        from: { name: "IT", address: "it-noreply@river-tools.com" },
        subject: "Your password expires in 3 days",
        bodyText: "To avoid losing access to email and VPN, change your password at the usual sign-in page.",
      });
      const lapsing = analyse({
        from: { name: "Expenses", address: "noreply@expenses.example" },
        subject: "3 unsubmitted expenses",
        bodyText:
          "Items must be submitted within 60 days. Your oldest item will no longer be reimbursable after April 11, 2025. Log in to submit your report.",
      });
      for (const r of [outstanding, expiring, lapsing]) {
        expect(archiveOnly(r)).toBe(false);
        expect(r.suggestedActions.join(" ")).toMatch(/before|by |within|until/);
      }
    });
  });
  describe("round 2 of fresh dev mail (issue 18, part 3)", () => {
    it("takes 'a review would be much appreciated' and 'it'd be really helpful if' for requests", () => {
      for (const bodyText of [
        "Hi Jo, I've pushed the retry logic. Whenever you get a chance, a review would be much appreciated.",
        "Morning! It'd be really helpful if the notes from yesterday's call ended up in the shared doc.",
      ]) {
        const r = analyse({ bodyText });
        expect(r.responseTime).not.toBe("No response needed");
        expect(r.suggestedActions.join(" ")).not.toMatch(/Archive/);
      }
    });

    it("reads a day and month written in figures as the deadline", () => {
      const r = analyse({
        subject: "Security questionnaire",
        bodyText:
          "Hi Jo,\n\nOur procurement team needs the completed questionnaire back by 14/04 so the renewal can go to the board.\n\nBest,\nMia",
      });
      expect(r.suggestedActions.join(" ")).toMatch(/14\/04/);
    });
  });
});

describe("intent put in other words (part 5)", () => {
  it("answers a question put as a statement, and keeps 'wondering if you could' a request", () => {
    for (const bodyText of [
      "Hannah,\n\nI'm weighing up the absence insurance scheme. I'd be interested to know roughly what we spent on supply cover last year.\n\nRob",
      "Hi, not sure if you'd know this but I was wondering who has the keys for the music cupboard now. Tom",
    ]) {
      const a = analyse({ bodyText });
      expect(a.suggestedActions.join(" ")).toMatch(/^Reply|Answer/);
      expect(a.responseTime).not.toBe("No response needed");
    }
    const request = analyse({
      bodyText: "Hi, I was wondering if you could send me the risk assessment. Tom",
    });
    expect(request.suggestedActions.join(" ")).not.toMatch(/^Answer/);
  });

  it("reads a demand for money back and a politely raised concern as complaints", () => {
    for (const bodyText of [
      "I've been charged twice for Tyler's dinners for the second month running. That's not acceptable. I want the money back.\n\nCraig",
      "Dear Mrs Brooks,\n\nI hope you don't mind me raising this. The trip letter asked for £18 in two days. I'd be grateful if parents could have more notice in future.\n\nKind regards,\nAnita",
    ]) {
      const a = analyse({ bodyText, from: { name: "", address: "parent.x@outlook.com" } });
      expect(a.suggestedActions.join(" ")).not.toMatch(/^Archive/);
      expect(a.responseTime).not.toBe("No response needed");
    }
  });

  it("reads a deadline written in one long sentence", () => {
    const a = analyse({
      bodyText:
        "Dear Hannah,\n\nA reminder that the finance report and the draft budget for the full governing body meeting on Thursday 10 April need to " +
        "reach me by end of day tomorrow (Tuesday 8 April), so that papers can be circulated 48 hours in advance as required.\n\nBest wishes,\nAmina " +
        "Rashid\nClerk to the Governing Body",
      from: { name: "Amina Rashid", address: "governor.services@northmere.gov.uk" },
    });
    expect(a.summary).toMatch(/finance report/);
    expect(a.responseTime).not.toBe("No response needed");
  });
});

describe("intent in a salon's mail (part 5, round 7)", () => {
  it("reads a need with a long object before its date, and a notice's 'add a payment method before then', as deadlines", () => {
    const broker = analyse({
      bodyText:
        "Hi Jade,\n\nJust a reminder that the insurer needs the signed proposal form and the treatment training declaration back by Friday 11 April. A scan is fine.\n\nRegards,\nDominic",
    });
    expect(broker.suggestedActions.join(" ")).not.toMatch(/^Archive/);
    const trial = analyse({
      from: { name: "Chairflow", address: "no-reply@chairflow.io" },
      subject: "Your free trial ends in 7 days",
      bodyText:
        "Your free trial ends on Monday 14 April 2025.\n\nTo keep your diary and online booking page, add a payment method before then.",
    });
    expect(trial.suggestedActions.join(" ")).not.toMatch(/^Archive/);
  });

  it("reads 'gutted', wanting money back and 'not what I expect' as complaints, and 'the Tuesday before' as no deadline", () => {
    for (const bodyText of [
      "Jade,\n\nAbsolutely gutted with my hair. I want it fixed before Thursday and I think I should get some of my money back.\n\nNatalie",
      "I had a 1pm appointment today and wasn't seen until 1.40. Nobody told me there was a delay. This isn't what I expect. I'd appreciate an explanation.",
      "I've noticed a no-show charge on my card. I actually cancelled that appointment on the Tuesday before. I'd be grateful if you could refund the charge.",
    ]) {
      const a = analyse({ bodyText, from: { name: "", address: "client.x@gmail.com" } });
      expect(a.suggestedActions.join(" ")).not.toMatch(/^(Archive|Do what is asked)/);
    }
  });
});

describe("intent in a building contractor's mail (part 5, round 8)", () => {
  it("reads a repeated grievance with a demand as a complaint", () => {
    const a = analyse({
      from: { name: "", address: "janet.pryce61@gmail.com" },
      bodyText:
        "Mr Mensah,\n\nThis is now the FOURTH time. Another lorry blocked my drive this morning. If this happens again I will be contacting the council. I expect a phone call today.\n\nJanet Pryce",
    });
    expect(a.suggestedActions.join(" ")).not.toMatch(/^(Archive|Do what is asked)/);
  });

  it("reads 'we still have not received' with a date to meet as a deadline, not a complaint", () => {
    const a = analyse({
      from: { name: "Peter Saunders", address: "peter.saunders@marshbury.gov.uk" },
      bodyText:
        "Dear Mr Mensah,\n\nWe still have not received the Electrical Installation Certificate. It must be submitted by 18 April 2025; after that " +
        "date the file will be closed as incomplete.\n\nRegards,\nPeter Saunders",
    });
    expect(a.suggestedActions.join(" ")).toMatch(/18 April|by|before/i);
    expect(a.suggestedActions.join(" ")).not.toMatch(/complaint/i);
  });

  it("answers a question that opens with 'what' and has no question mark", () => {
    const a = analyse({
      from: { name: "", address: "garyfenwick.sparks@hotmail.co.uk" },
      bodyText:
        "Dan what size cable do you want for the car charger at Harcourt Rd, 6mm or 10mm. its a 28m run from the board\n\nGaz",
    });
    expect(a.responseTime).not.toBe("No response needed");
  });
});

describe("intent in an IT service desk's mail (part 6, round 10)", () => {
  it("answers a question put after a lead-in ('I can't remember, is ...?')", () => {
    const a = analyse({
      from: { name: "Glenys", address: "glenys.c@btinternet.com" },
      bodyText:
        "Hello love,\n\nI'm making a trifle on Sunday and I can't remember, is Owen still allergic to strawberries or did he grow out of it?\n\nLove, Mum x",
    });
    expect(a.responseTime).not.toBe("No response needed");
    expect(a.suggestedActions.join(" ")).toMatch(/^Reply/);
  });
});

describe("intent in a law firm's and a food bank's mail (part 6, round 11)", () => {
  it("reads a court's direction to lodge a bundle by a date as a deadline", () => {
    const a = analyse({
      from: { name: "Listing Office", address: "listing@brackenfordcourt.org.uk" },
      bodyText:
        "Dear Sirs,\n\nThe court directs that the applicant's solicitors lodge the electronic hearing bundle by 4pm on Monday 10 February 2025. " +
        "Bundles lodged after that time may not be considered.\n\nListing Office",
    });
    expect(a.responseTime).not.toBe("No response needed");
    expect(a.suggestedActions.join(" ")).not.toMatch(/^Archive/);
  });

  it("reads 'Fancy a coffee this weekend?' as an invitation", () => {
    const a = analyse({
      from: { name: "Priya", address: "priya.shah@icloud.com" },
      bodyText:
        "Hiya!\n\nIt feels like forever. Fancy a coffee at the deli this weekend? I could do Saturday around 10.\n\nP x",
    });
    expect(a.suggestedActions.join(" ")).not.toMatch(/^Archive/);
    expect(a.responseTime).not.toBe("No response needed");
  });
});

describe("intent in a pottery factory's mail (part 7, round 12)", () => {
  it("reads a polite letter about an order weeks overdue, asking for it or a refund, as a complaint", () => {
    const a = analyse({
      from: { name: "Gordon Platt", address: "g.platt@btinternet.com" },
      subject: "Order 5521",
      bodyText:
        "Dear Sir or Madam,\n\nI ordered two cushions from your shop on 3 March, to arrive within the week. It is now over two weeks and I have not " +
        "received them. I would be grateful if you could send them or refund me.\n\nYours faithfully,\nGordon Platt",
    });
    expect(a.suggestedActions.join(" ")).toMatch(/complaint|problem/);
    expect(a.responseTime).not.toBe("No response needed");
    // The order date has gone by: it is no deadline.
    expect(a.keyPoints.join(" ")).not.toMatch(/Deadline: 3 March/);
  });

  it("answers a question put after a topic the writer could not work out", () => {
    const a = analyse({
      from: { name: "Hari", address: "hari.books@outlook.com" },
      subject: "Accounts - one query",
      bodyText:
        "Hi Jo,\n\nOne thing I couldn't work out from the statements: the £820 paid to Brightline on 2 March, was that the van lease or a repair?\n\nThanks,\nHari",
    });
    expect(a.suggestedActions.join(" ")).toMatch(/^Reply/);
    expect(a.responseTime).not.toBe("No response needed");
  });
});

describe("intent in a piano tuner's mail (part 7, round 13)", () => {
  it("reads a polite complaint that asks to put a job right at no charge, with a past visit date, as a complaint", () => {
    const a = analyse({
      from: { name: "Ruth Hale", address: "ruth.hale@btinternet.com" },
      subject: "Boiler service on 12 March",
      bodyText:
        "Dear Mr Price,\n\nI don't like to make a fuss. However, a week after your visit on 12 March the boiler is making the same noise, which it " +
        "did not do before. I should be grateful if you would come back and put it right at no further charge.\n\nYours sincerely,\nRuth Hale",
    });
    expect(a.suggestedActions.join(" ")).toMatch(/complaint/);
    expect(a.keyPoints.join(" ")).not.toMatch(/Deadline: 12 March/);
  });

  it("reads 'it didn't go down well ... I'm sure it was an oversight, we would ask you to reissue' as a complaint", () => {
    const a = analyse({
      from: { name: "Alan Webb", address: "alan.webb@gmail.com" },
      subject: "Invoice 118",
      bodyText:
        "Mia,\n\nI showed your invoice to the committee and it didn't go down well: the second visit was meant to be included. I'm sure it was an " +
        "oversight, but we would ask you to reissue it for one visit.\n\nRegards,\nAlan",
    });
    expect(a.suggestedActions.join(" ")).toMatch(/complaint/);
    expect(a.responseTime).not.toBe("No response needed");
  });
});

describe("intent in an insurer's claims team (part 7, round 14)", () => {
  it("answers questions buried in long sentences", () => {
    for (const bodyText of [
      "Hi Jo,\n\nI've read the new guidance twice without being able to work out whether the £350 excess applies to claims reported after 1 March or only to losses after it.\n\nTom",
      "Dear Ms Reyes,\n\nWe are inclined to accept the offer, but before we sign anything I would like to understand whether accepting now would " +
        "stop us claiming again if the damp returns.\n\nYours sincerely,\nB. Aker",
      "Hi Jo,\n\nThe guide is great, though the one thing I couldn't work out from section 7 is who signs off payments under £250.\n\nElla",
    ]) {
      const a = analyse({
        from: { name: "Tom Ray", address: "tom.ray@gmail.com" },
        subject: "Quick one",
        bodyText,
      });
      expect(a.suggestedActions.join(" ")).toMatch(/^Reply/);
    }
  });

  it("reads a hope that the reader can act as a request, and time asked in the diary as a meeting", () => {
    const hope = analyse({
      from: { name: "Jade", address: "jade.k@lakeside-print.com" },
      bodyText:
        "Morning,\n\nIt's not something I can sign off at my level, and I'm hoping you might be able to put a note on the file approving it.\n\nThanks,\nJade",
    });
    expect(hope.responseTime).not.toBe("No response needed");
    const diary = analyse({
      from: { name: "Richard", address: "richard.b@lakeside-print.com" },
      bodyText:
        "Jo,\n\nBefore the board on Wednesday I'd like to go through the numbers with you, so if you could find half an hour tomorrow, drop it in my diary.\n\nRichard",
    });
    expect(diary.suggestedActions.join(" ")).toMatch(/invitation|calendar|meeting/i);
  });

  it("reads an ombudsman's request for a file by a date, about someone else's complaint, as a deadline", () => {
    const a = analyse({
      from: { name: "Tessa Marlow", address: "tessa.marlow@ombudsman-service.example" },
      subject: "Complaint ref FDS-1187 - Mr G Wilkes",
      bodyText:
        "Dear Ms Reyes,\n\nMr Wilkes has referred his complaint to our service. The complaint concerns a delay in paying his settlement.\n\nPlease " +
        "send us your complete business file by 18 April 2025.\n\nYours sincerely,\nTessa Marlow",
    });
    expect(a.suggestedActions.join(" ")).not.toMatch(/complaint/);
    expect(a.suggestedActions.join(" ")).toMatch(/18 April/);
  });
});

describe("intent in a research lab's and a hospice's mail (part 8, round 16)", () => {
  const from = { name: "Rafa Monteiro", address: "rafa.monteiro@lakeside-print.com" };
  const actionsOf = (bodyText: string, subject = "Quick one") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads requests put as appreciation, a need or someone's hope as requests", () => {
    for (const bodyText of [
      "Hi Jo,\n\nThe lock on the bike shed has seized. I'd really appreciate it if someone from facilities could look at it when they next have time.\n\nRafa",
      "Hi Jo,\n\nMy purchasing card was declined this morning for a box of gloves. I'd need the limit raising to keep ordering for the project.\n\nRafa",
      "Hi Jo,\n\nOur comms team are hoping you'll be able to mention the partnership in your next newsletter.\n\nRafa",
    ])
      expect(actionsOf(bodyText)).toMatch(/^Reply to .* about the request/);
  });

  it("reads questions put as a need to know, a hope to find out, something unclear or 'am I supposed to'", () => {
    for (const bodyText of [
      "Hi Jo,\n\nBefore I chase the supplier I just need to know whether you signed off the extra pallets last week.\n\nRafa",
      "Hello Jo,\n\nI start on Monday and I was hoping to find out roughly what time people usually arrive.\n\nRafa",
      "Dear Jo,\n\nThe panel liked the bid. It wasn't clear to them what the £2,000 contingency would cover in practice.\n\nRafa",
      "Jo, if the fire alarm goes off while I'm on the late shift am I supposed to stop the press first or just leave straight away.\n\nRafa",
    ])
      expect(actionsOf(bodyText)).toMatch(/^Reply to answer/);
  });

  it("reads a meeting called off, a visit cancelled, a day swapped, a drop-by and 'good to get together' as about a meeting", () => {
    for (const bodyText of [
      "Hi Jo,\n\nFriday's team meeting is off this week, Sam is unwell. We'll pick it up on the 25th.\n\nRafa",
      "Dear Jo,\n\nI'm so sorry, but we're going to have to cancel our visit on the 18th. I'll come back to you with new dates.\n\nRafa",
      "Can't do Thursday now, something's come up. Friday 10ish instead?\n\nR",
      "Hi Jo,\n\nI'll be in town on 22 April and wondered if I might drop by for half an hour to show you the new range.\n\nRafa",
      "Hi Jo,\n\nWould be good to get together before the launch to run through the running order. I'm free most mornings next week.\n\nRafa",
    ])
      expect(actionsOf(bodyText)).toMatch(/new time|invitation|meeting|calendar/i);
  });

  it("reads being taken aback, calls three times in one week and 'I'm sure this is a simple oversight' as complaints", () => {
    expect(
      actionsOf(
        "Dear Sir or Madam,\n\nI was rather taken aback to be phoned three times in one week by your sales team after I had said no thank you.\n\nYours faithfully,\nT. Boyle",
      ),
    ).toMatch(/complaint/);
    expect(
      actionsOf(
        "Dear Jo,\n\nThe invoice charges us for 15 days of press time when we only had 9. I'm sure this is a simple oversight, but our finance team " +
          "has asked me to query it.\n\nKind regards,\nMalcolm",
      ),
    ).toMatch(/complaint/);
  });

  it("reads a mail that says it is an automated notification as one, whatever its sender address", () => {
    const a = analyse({
      from: { name: "IT Service Desk", address: "itservicedesk@lakeside-print.com" },
      subject: "[IT #INC0094488] Incident resolved: quota increase",
      bodyText:
        "Your incident INC0094488 has been resolved.\n\nResolution: Quota increased to 1 TB.\n\nThis incident will close automatically in 5 working " +
        "days.\n\nThis is an automated notification from the IT Self-Service Portal. Please do not reply to this email.",
    });
    expect(a.suggestedActions.join(" ")).not.toMatch(/^Reply|Reply to/);
    expect(a.responseTime).toBe("No response needed");
  });
});

describe("intent in a bus company's and a photographer's mail (part 9, round 18)", () => {
  const from = { name: "Rafa Monteiro", address: "rafa.monteiro@lakeside-print.com" };
  const actionsOf = (bodyText: string, subject = "Quick one") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads a confirmed visit with the time someone will be there as about a meeting", () => {
    expect(
      actionsOf(
        "Hi Jo,\n\nPerfect, that's settled then – I'll be at your Riverside works for 10:15 on Tuesday with our installer. We'll need the loading bay clear.\n\nRafa",
        "RE: Press installation",
      ),
    ).toMatch(/calendar|meeting/i);
  });

  it("reads a nudge ('worth getting them in before then', reports still without a completed review) as a deadline", () => {
    const a = actionsOf(
      "Hi Jo,\n\nJust a nudge: the expenses window shuts at noon on Friday 11 April, and two of your team still don't have a submitted claim for " +
        "March. It's worth getting them in before then, as late claims roll over to May.\n\nRafa",
      "Expenses – nudge",
    );
    expect(a).toMatch(/before/i);
    expect(a).not.toMatch(/^Archive/);
  });

  it("reads a problem that keeps happening, raised before, and 'expected it to have been addressed by now' as complaints", () => {
    expect(
      actionsOf(
        "Hi Jo,\n\nSorry to bring this up again, but your van blocked our gate on Tuesday and Thursday mornings. We did mention it back in March. It really can't keep happening.\n\nRafa",
      ),
    ).toMatch(/complaint/);
    expect(
      actionsOf(
        "Dear Jo,\n\nResidents have told me about lorries idling outside the works at 6am. I raised this at the liaison meeting in January and would " +
          "have expected it to have been addressed by now. I would be grateful for a written reply.\n\nRafa",
      ),
    ).toMatch(/complaint/);
  });

  it("reads 'This is an automated security message. Please do not reply.' as a system's notice, and a person's 'please do not reply to all' as no such notice", () => {
    const alert = analyse({
      from: { name: "Harbour Bank", address: "security@alerts.harbourbank.example" },
      subject: "New sign-in to your account",
      bodyText:
        "We noticed a sign-in from a new device.\n\nIf you don't recognise it, please call us on the number on your card.\n\nThis is an automated security message. Please do not reply.",
    });
    expect(alert.suggestedActions.join(" ")).not.toMatch(/Reply to/);
    expect(alert.responseTime).toBe("No response needed");
    expect(
      actionsOf(
        "Hi all,\n\nCould you each send me your availability for the away day? Please do not reply to all, just to me.\n\nRafa",
      ),
    ).toMatch(/^Reply to/);
  });
});

describe("intent in a farrier's, a beekeeping firm's and a bee farmer's mail (part 9, round 19)", () => {
  const from = { name: "Rafa Monteiro", address: "rafa.monteiro@lakeside-print.com" };
  const actionsOf = (bodyText: string, subject = "Quick one") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads 'Is it ... or shall I ...' without its question mark as a question", () => {
    expect(
      actionsOf(
        "Jo\n\nThe blue inks are on offer this week but only in the big tins. Is it just the usual small ones you want me to order or shall I get a " +
          "couple of the big ones as well, since we'll use more now\n\nRafa",
      ),
    ).toMatch(/^Reply to answer/);
  });

  it("reads 'send it my way when you get a second' and 'pop it back to me' as requests", () => {
    for (const bodyText of [
      "Hi Jo,\n\nI'm matching the card statement and one taxi receipt is missing. If it's still in your bag, snap a photo and send it my way when you get a second.\n\nRafa",
      "Hello Jo,\n\nThe show needs a signed supplier declaration. It just needs your name and a signature at the bottom, then pop it back to me.\n\nRafa",
    ])
      expect(actionsOf(bodyText)).toMatch(/^Reply to .* about the request/);
  });

  it("reads a renewal that 'runs out on the 12th of May' with a suggestion to act as a deadline", () => {
    const a = analyse({
      from: { name: "Hill Garage", address: "service@hillgarage.example" },
      subject: "MOT due - your van",
      bodyText:
        "Hi Jo\n\nJust a reminder that the MOT on the van runs out on the 12th of May. We'd suggest getting it in the week before so you're not off the road.\n\nDilwyn",
    });
    expect(a.suggestedActions.join(" ")).toMatch(/before 12th May/);
  });

  it("reads a cancelled trim or inspection, a meeting that moves, 'same time next week instead?' and a call going ahead as about a meeting", () => {
    for (const bodyText of [
      "Hi Jo,\n\nReally sorry but we'll have to cancel tomorrow's fitting. I'll ring you to rebook.\n\nRafa",
      "Hi Jo,\n\nI have to cancel our inspection of the press room on Wednesday 4 June. I'll send new dates next week.\n\nRafa",
      "All,\n\nMonday is a bank holiday so this week's planning meeting moves to Tuesday 8:00.\n\nRafa",
      "Jo - sorry, I'm going to have to cancel Wednesday, the boiler's gone. Same time next week instead?\n\nRafa",
      "Hi Jo,\n\nJust to confirm the committee call is going ahead on Monday at 7.30pm, same link as last time.\n\nRafa",
    ])
      expect(actionsOf(bodyText)).toMatch(/new time|invitation|meeting|calendar/i);
  });

  it("reads a third time in a row, 'a text would have helped', being put off and 'I hate to even mention this' as complaints", () => {
    for (const bodyText of [
      "Hi Jo,\n\nI don't want to make a big thing of this, but this is the third Friday in a row the van has turned up after 6. A text would have helped at least.\n\nRafa",
      "Hello,\n\nOne of the two boxes I bought had split and the lid wasn't on. I was honestly a bit put off at that price. I would have expected someone to check them before they went out.\n\nRafa",
      "Hi Jo,\n\nI hate to even mention this, but your delivery lorries have been parking across our drive. I'm not trying to cause trouble, it just isn't much fun at the moment.\n\nRafa",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("reads 'Please do not reply to this email as the mailbox is not monitored.' as a system's notice", () => {
    const a = analyse({
      from: { name: "Swift Parcels", address: "tracking@swift-parcels.example" },
      subject: "Your parcel is out for delivery",
      bodyText:
        "Hi Jo,\n\nYour parcel is out for delivery today. Not going to be in? Please choose a safe place before 09:30.\n\nPlease do not reply to this email as the mailbox is not monitored.",
    });
    expect(a.suggestedActions.join(" ")).not.toMatch(/Reply to/);
  });
});

describe("questions opened by any auxiliary (part 9)", () => {
  it("reads questions that open with has, have, were, may or a negative auxiliary as questions", () => {
    const from = { name: "Rafa Monteiro", address: "rafa.monteiro@lakeside-print.com" };
    for (const bodyText of [
      "Hi Jo,\n\nHas the second batch of labels turned up at your end yet?\n\nRafa",
      "Jo,\n\nWere the proofs from Tuesday the final ones?\n\nRafa",
      "Hi Jo,\n\nQuick one: haven't the council already approved the new sign?\n\nRafa",
    ])
      expect(analyse({ from, subject: "Labels", bodyText }).suggestedActions.join(" ")).toMatch(
        /^Reply to answer/,
      );
  });
});

describe("intent in an orchestra librarian's and two upholsterers' mail (part 9, round 20)", () => {
  const from = { name: "Rafa Monteiro", address: "rafa.monteiro@lakeside-print.com" };
  const actionsOf = (bodyText: string, subject = "Quick one") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads short questions without a verb to open them, greetings before a name, lead-ins and clauses cut off as questions", () => {
    for (const bodyText of [
      "Still on for Thursday? Sorry, mad week.",
      "Pasta or the leftover curry tonight? Leaving about 6\n\nO",
      "Spare van keys – yours? Not on the hook.\nT",
      "Hey Jo, any idea roughly how long the second half runs? Trying to work out the last train.\n\nKit",
      "Quick one before I send this to the printer — how many copies did you order last year, I've got 500 in my notes\n\nR",
      "The inspector wants paperwork for the seating. So – does the fabric meet the fire standard (he mentioned Crib 5?), and if so, is there a certificate somewhere?\n\nLudo",
      "Hi,\n\nA friend had his chairs done by you last year. The seats in my camper are tired and the vinyl's cracked right through. Not sure " +
        "whether you do vehicle work at all or just furniture, and if not whether you know anyone who does\n\nCheers\nBen",
      "Dear Jo,\n\nBefore the trustees invite a quotation they have asked me to establish whether the work could be done on site. I should also be " +
        "grateful to know what public liability cover you hold.\n\nYours sincerely,\nE. Fitch",
    ])
      expect(actionsOf(bodyText)).toMatch(/^Reply to answer/);
  });

  it("does not read a rhetorical aside or a service's help pointer as a question", () => {
    expect(actionsOf("We sold out by noon. Who knows?\n\nRafa")).not.toMatch(/^Reply to answer/);
    const order = analyse({
      from: { name: "Threadshop", address: "orders@threadshop.example" },
      subject: "Order confirmation",
      bodyText:
        "Thank you for your order, Jo!\n\nOrder number: TS-1182\nTotal: £34.10\n\nQuestions about your order? Please visit threadshop.example/help.",
    });
    expect(order.suggestedActions.join(" ")).not.toMatch(/Reply to/);
  });

  it("reads services' mail that says why you receive it, or says 'Please don't reply', as notices", () => {
    const notices: Array<[string, string]> = [
      [
        "payouts@notifications.tillshop.example",
        "We've sent a payout of £1,284.50 to your account.\n\nPlease don't reply to this email – this inbox isn't monitored. Need help? Visit help.tillshop.example.",
      ],
      [
        "bookings@classhub.example",
        "You have a new booking!\n\nClass: Seat Workshop\nAmount paid: £95.00\n\nPlease note that payouts are made 3 working days after the " +
          "class.\n\nYou're receiving this email because you're an organiser on ClassHub. Manage your notification settings in your account.",
      ],
    ];
    for (const [address, bodyText] of notices)
      expect(
        analyse({ from: { name: "Service", address }, subject: "Update", bodyText }).suggestedActions.join(
          " ",
        ),
      ).not.toMatch(/Reply to/);
  });

  it("reads rent not yet paid and a sign-up that closes on a date as deadlines, and a school's 'we have to confirm' as no meeting", () => {
    expect(
      actionsOf(
        "Dear Jo,\n\nAccording to my book you haven't yet paid the plot rent for 2025 (£42). It's due by 31 March.\n\nDerek",
      ),
    ).toMatch(/before 31 March/);
    expect(
      actionsOf(
        "Hi Jo,\n\nJust so you know, the sign-up for the summer week closes this Sunday (13 April) at midnight. The form is on the website.\n\nRuth",
      ),
    ).toMatch(/before/);
    expect(
      actionsOf(
        "Dear Parent,\n\nConsent forms for the field trip must be returned by 3pm on Friday 21 March. Students without one will follow a cover " +
          "lesson, as we have to confirm coach numbers.\n\nMrs Aldous",
      ),
    ).not.toMatch(/invitation|calendar/i);
  });

  it("reads a visit booked between set hours as about a meeting", () => {
    expect(
      actionsOf(
        "Hi Jo,\n\nThe gas engineer is coming on Thursday 20th between 8 and 12 to do the safety checks. He has a key.\n\nTamsin",
      ),
    ).toMatch(/calendar|meeting/i);
  });

  it("reads getting beyond a joke, being that neighbour, a wrong edition and 'should have been asked first' as complaints", () => {
    for (const bodyText of [
      "Jo,\n\nI've mentioned this to Owen a couple of times now so I'm putting it in writing. Your van is across our drive most evenings again. It's getting beyond a joke.\n\nGraham",
      "Hi Jo,\n\nSorry to be that neighbour, but the glue smell from your unit has been really bad this week. This never used to happen.\n\nDeclan",
      "Dear Jo,\n\nThe score arrived this morning. Unfortunately it is the old edition and not the one that he requested in January. The Maestro is rather unhappy.\n\nIlse",
      "Dear Jo,\n\nI'm a little taken aback by the invoice: the quote was £285 and the invoice is £362. Nobody mentioned any extra work, and I should have been asked first.\n\nLorna",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });
});

describe("intent in a dog groomer's and a driving school's mail (part 10, round 21)", () => {
  const from = { name: "Nadia Kowal", address: "nadia.kowal@fernmail.example" };
  const actionsOf = (bodyText: string, subject = "Saturday") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads grievances put without a complaint word as complaints", () => {
    for (const bodyText of [
      // a broken assurance
      "Tom,\n\nWhen we spoke in March you assured me the fence panels would be replaced before the lambs went out. They went out on Monday and two panels are still down.\n\nNadia",
      // an expectation the reader fell short of
      "Dear Mr Lowe,\n\nThe hedge was left half cut and the clippings are all over the lane. For £120 I would expect the job to be finished and tidied.\n\nN. Kowal",
      // a step up
      "Hello,\n\nI have tried to be reasonable about the bonfires but this has now gone on long enough. I would rather sort it out between us than involve the council.\n\nNadia (no. 4)",
      // a reproach
      "Hi Sam,\n\nSaw on Instagram you were at the beach on Saturday. It would have been nice to know you were free, I did ask you weeks ago and you said you were busy.\n\nMum",
      // dismay and the cost to others
      "Dear Tom,\n\nI was rather surprised to find the hall still locked at 9 when the caretaker had been told 8. It reflects poorly on all of us " +
        "when what has been agreed isn't done.\n\nNadia Kowal\nSecretary",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("keeps a pleasant surprise and a plain promise out of complaints", () => {
    expect(
      actionsOf(
        "Hi Tom,\n\nI was pleasantly surprised to find the shed already painted. Thanks so much!\n\nNadia",
      ),
    ).not.toMatch(/complaint/);
    expect(
      actionsOf(
        "Hi Tom,\n\nI promise I'll bring the trailer back on Sunday. Thanks for lending it.\n\nNadia",
      ),
    ).not.toMatch(/complaint/);
  });

  it("reads questions without their mark: a tag, 'What you think', a learner's choice and a hedged figure", () => {
    for (const bodyText of [
      "You're still coming to the quiz Friday aren't you. We're a man down if not\n\nJ",
      "Hello Tom,\n\nMy cat is 12 years and she is not eating the dry food any more. Maybe I change to the wet food. What you think\n\nThank you\nNadia",
      "Hello,\n\nI have the licence from Romania since 2019. It is valid here this licence or I must to do the test again before I can drive\n\nThank you\nNadia",
      "Alright Tom. Our Leah is 17 in June. Roughly what does it cost to get through the whole thing these days, start to finish.\n\nN",
      "Hi Tom, I meant to ask you whether you could do Tuesdays as well, and what you'd charge.\n\nNadia",
      "Hello,\n\nIt is possible to cut her coat short for summer or this is bad for the coat?\n\nNadia",
    ])
      expect(actionsOf(bodyText)).toMatch(/^Reply to/);
  });

  it("reads a cancelled meet and greet as a meeting called off, and an invitation that allows for cancelling as an invitation", () => {
    expect(
      actionsOf(
        "Hi Tom,\n\nSo sorry but I'll have to cancel the meet and greet on Monday, the puppy is poorly. I'll be in touch to rebook.\n\nNadia",
      ),
    ).toMatch(/rebook or confirm the cancellation.*out of your calendar/);
    expect(
      actionsOf(
        "Hi Tom,\n\nWould you like to come to the meet and greet on Monday at 10? If you need to cancel, just text me.\n\nNadia",
      ),
    ).toMatch(/accept or decline/);
  });

  it("reads services' mail that says why you received it, or where to manage notifications, as notices", () => {
    const notices: Array<[string, string]> = [
      [
        "feedback@quickship.example",
        "Your parcel was delivered on Thursday at 11:42.\n\nHow would you rate your delivery?\n\n1  2  3  4  5\n\nQuickShip Ltd. You received this email because a parcel was delivered to you.",
      ],
      [
        "fixtures@leagueapp.example",
        "Hi Tom,\n\nA fixture for your team has changed.\n\nWas: Thu 20:00, Pitch 3\nNow: Thu 21:00, Pitch 1\n\nCan't make it? Tell your captain.\n\nManage notifications in the LeagueApp app.",
      ],
    ];
    for (const [address, bodyText] of notices)
      expect(
        analyse({ from: { name: "Service", address }, subject: "Update", bodyText }).suggestedActions.join(
          " ",
        ),
      ).not.toMatch(/Reply to/);
  });
});

describe("intent in a heating engineer's and a bakery's mail (part 10, round 22)", () => {
  const from = { name: "Nadia Kowal", address: "nadia.kowal@fernmail.example" };
  const actionsOf = (bodyText: string, subject = "Flat 2") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads a chase that keeps count, irony, a refusal to pay, a promise recalled and unfairness as complaints", () => {
    for (const bodyText of [
      "Hi Tom,\n\nJust following up on this again (see below). The tenant has rung our office six times today. I did mention she has a baby, in case that got lost among my other emails.\n\nNadia",
      "Tom,\n\nShort again this morning, and the invoice is for the full order. I've stopped counting how many times it's been now.\n\nNadia",
      "Hi Tom,\n\nAs I mentioned (several times now), we order 40 for the early drop. This morning we got 28. I'm sure there's a perfectly good reason.\n\nNadia",
      "Dear Tom,\n\nMy tenant says you were on site for two hours, yet the invoice charges six. I am not prepared to settle the invoice in its present form.\n\nN. Kowal",
      "dad i waited outside the pool for forty minutes. you literally said 6\n\nnadia",
      "Tom\n\nAgain I have the early shift every day this week. Last month you said we will share them but nothing change. I dont want to make big drama but this is not fair.\n\nNadia",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("does not read a supplier's 'the worst hit' as a complaint", () => {
    expect(
      actionsOf(
        "Dear Tom,\n\nOur prices go up by 7% from 1 June because of feed costs; butter is the worst hit I'm afraid. Standing orders confirmed before " +
          "31 May keep today's prices. Just reply and let me know which lines you want fixed.\n\nNadia",
      ),
    ).not.toMatch(/complaint/);
  });

  it("reads a need put in the future tense and 'might be worth someone having a look' as requests", () => {
    for (const bodyText of [
      "Hi Tom,\n\nWe're taking over the flat next month, so we'll need a copy of the current gas safety certificate for our file.\n\nNadia",
      "Morning Tom,\n\nThe tenant says the tank knocks when the immersion is on. If you happen to be over that way it might be worth someone having a look at it.\n\nNadia",
    ])
      expect(actionsOf(bodyText)).toMatch(/^Reply to/);
  });

  it("reads 'Just confirming our meeting' as about a meeting", () => {
    expect(
      actionsOf(
        "Hi Tom,\n\nJust confirming our meeting on Wednesday 12th at 2pm at our office. Parking is behind the building.\n\nNadia",
      ),
    ).toMatch(/invitation|calendar/i);
  });

  it("finds deadlines before a date named earlier in the sentence, ahead of an inspection, in a lapse unless, and in a subject's short date", () => {
    expect(
      actionsOf(
        "Hi Tom,\n\nWe're due to exchange on Wednesday and our solicitor says we need the certificate before then. Are you able to get hold of a copy?\n\nNadia",
      ),
    ).toMatch(/before Wednesday/);
    expect(
      actionsOf(
        "Tom,\n\nWe need the new gas safety record on file ahead of Friday's inspection. Can you let me know when you can get in?\n\nNadia",
      ),
    ).toMatch(/before Friday/);
    expect(
      actionsOf(
        "Hi Tom,\n\nJust a heads-up: your installer membership lapses on 31 May unless the online refresher module has been completed.\n\nNadia",
      ),
    ).toMatch(/31 May/);
    expect(
      analyse({
        from,
        subject: "Quote needed by Thurs 6th please",
        bodyText: "Hi Tom,\n\nAs discussed on the phone, for the ensuite. Measurements attached.\n\nNadia",
      }).suggestedActions.join(" "),
    ).toMatch(/before Thurs 6th/);
  });

  it("reads a person writing from a role mailbox under their own name as a person, but not a helpdesk's no-reply", () => {
    expect(
      analyse({
        from: { name: "Karen Moss", address: "orders@harrowmill.example" },
        subject: "T65 substitution?",
        bodyText:
          "Hi Tom,\n\nWe're out of the organic T65 until the 20th. Would you like the non-organic in its place this week, or shall we hold the line?\n\nKaren",
      }).suggestedActions.join(" "),
    ).toMatch(/^Reply to/);
    expect(
      analyse({
        from: { name: "Ridgeway Helpdesk", address: "noreply@helpdesk.ridgeway.example" },
        subject: "Ticket 2291 resolved",
        bodyText:
          "Your ticket 2291 has been resolved. Reply to this email to reopen it.\n\nRidgeway Helpdesk",
      }).suggestedActions.join(" "),
    ).not.toMatch(/Reply to/);
  });
});

describe("intent in two opticians' and a garage's mail (part 10, round 23)", () => {
  const from = { name: "Nadia Kowal", address: "nadia.kowal@fernmail.example" };
  const actionsOf = (bodyText: string, subject = "Thursday") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads a grievance raised again and plain displeasure as complaints", () => {
    for (const bodyText of [
      "Tom,\n\nI'm sorry to have to email about this again but your staff have parked in our loading bay every morning this week. I did mention it to you back in February.\n\nNadia",
      "I ordered my glasses a month ago and was told ten days. I've now rung twice and they are still not here. I'm not impressed.\n\nN. Kowal",
      "To whom it may concern,\n\nI telephoned this morning and the receptionist more or less put the phone down on me. I appreciate you are busy but there is no excuse for rudeness.\n\nN. Kowal",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("reads 'Just confirming Thursday 15th May at 10am for the visit' as a meeting, but not 'Thank you for confirming' before a document deadline", () => {
    expect(
      actionsOf(
        "Dear Tom,\n\nJust confirming Thursday 15th May at 10am for the visit. The lounge will be free from 9.45.\n\nKind regards\nNadia",
      ),
    ).toMatch(/invitation|calendar/i);
    expect(
      actionsOf(
        "Dear Mr Hale,\n\nThank you for confirming Tuesday 4 March for the audit visit. Please provide the following documents by Friday 14 " +
          "February:\n\n1. The fund accounts\n2. The order log\n\nKind regards,\nNadia Kowal",
      ),
    ).toMatch(/before Friday/);
  });

  it("finds a deadline in 'Just reply with quantities' after a price date and in an entry that closes on a weekday", () => {
    expect(
      actionsOf(
        "Hi Tom\n\nOur prices go up 6% from 1st May. Anything ordered by 5pm this Thursday goes through at the current price. Just reply with quantities.\n\nNadia",
      ),
    ).toMatch(/Thursday/);
    expect(
      actionsOf(
        "Hi Tom! Club entry for the Boxing Day 10k closes midnight Sunday (16th). Want me to put you down? It's £15.\n\nNadia",
      ),
    ).toMatch(/Sunday/);
  });

  it("reads a results mail that offers to update preferences, and a brand named like its domain, as notices", () => {
    for (const [name, address, bodyText] of [
      [
        "Vale 5k",
        "results@vale5k.example",
        "Hi Tom,\n\nThanks for running this morning. Here's your result:\n\nTime: 27:41\nPosition: 143 of 312\n\nSee you next Saturday!\nThe Vale 5k " +
          "team\n\nDon't want these emails? Update your preferences: https://vale5k.example/prefs",
      ],
      [
        "Brightside Energy",
        "hello@brightside-energy.example",
        "Hi Tom,\n\nYour latest bill is ready to view in your account. Can't see it? Log in again.\n\nAmount: £142.37\n\nBrightside Energy Ltd, PO Box 4410, Leeds",
      ],
    ] as const)
      expect(
        analyse({ from: { name, address }, subject: "Update", bodyText }).suggestedActions.join(" "),
      ).not.toMatch(/Reply to/);
  });
});

describe("intent in three falconers' mail (part 10, round 24)", () => {
  const from = { name: "Nadia Kowal", address: "nadia.kowal@fernmail.example" };
  const actionsOf = (bodyText: string, subject = "Saturday") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads a chase left unanswered, a disputed bill, doubt that the work works and an official's breach as complaints", () => {
    for (const bodyText of [
      "Tom honestly. I've texted three times and emailed twice and you haven't answered any of them. I'm not going to chase you again.\n\nNadia",
      "Hi Tom\n\nWe've been charged for four visits but the kitchen only saw you twice. I'll pay for the two visits we know about but not the " +
        "rest, and I'm not convinced it's working either.\n\nNadia",
      "Dear Mr Hale,\n\nYour vehicle was seen on the taxiway without an escort. This is a serious breach of the airside rules, and this is not the " +
        "first concern raised with us.\n\nN. Kowal\nSafety Manager",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("does not read someone who would be disappointed as complaining", () => {
    expect(
      actionsOf(
        "Dear Mr Hale,\n\nPlease return the signed placement form by Friday 27 June. Placements without paperwork by then will be cancelled, which " +
          "Daniel would be very disappointed about!\n\nMrs N. Kowal",
      ),
    ).not.toMatch(/complaint/);
  });

  it("reads a child's 'can i' without a question mark as a question, and a person signing a mailbox named after them as a person", () => {
    expect(
      actionsOf(
        "mam can i stay at jakes sat night his mum said its ok. can i have money for the cinema\n\nSent from my iPhone",
      ),
    ).toMatch(/^Reply to/);
    expect(
      analyse({
        from: { name: "Gemma Rowe", address: "hello@gemmaroweweddings.example" },
        subject: "Owl ring bearer",
        bodyText:
          "Hi Tom!\n\nThe couple have confirmed the owl for the 7th. Could you send over your T&Cs and a copy of your insurance so I can pass them on?\n\nTa,\nGemma x",
      }).suggestedActions.join(" "),
    ).toMatch(/^Reply to/);
  });
});

describe("complaints from every kind of correspondent (part 10, round 25)", () => {
  const from = { name: "Nadia Kowal", address: "nadia.kowal@fernmail.example" };
  const actionsOf = (bodyText: string, subject = "Order 2198") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads what was agreed against what came, what the writer wants put right, a creditor's stop and a landlord's concern as complaints", () => {
    for (const bodyText of [
      "Hi Tom,\n\nGot it home and the mount is cream, not ivory. We went through this, I even brought the swatch in. I paid £68 for it so I need it sorting.\n\nNadia",
      "Dear Mr Hale\n\nYou quoted £85 and I was charged £120 for UV glass. Neither was discussed with me and I did not ask for them. I should like the £35 difference refunded.\n\nNadia Kowal",
      "Hi Tom\n\nI'm down for Saturday again. Thats four in a row now and I only found out because I looked at the rota.\n\nNadia",
      "Dear Mr Hale,\n\nYour account has now been placed on stop. I have had no reply to any of our letters.\n\nN. Kowal\nCredit Control",
      "Mr Hale,\n\nThe yard was full of your packaging again and the fire door would only open halfway. Glass in an open box is a particular concern to me.\n\nN. Kowal",
      "Tom,\n\nI'm putting this in writing because I've mentioned it three times now. The heater still doesn't work. It needs actually sorting this time.\n\nNadia",
      "Hi Tom,\n\nThe invoice is £246 but the quote was £182. I'm not paying an extra £64 without knowing why.\n\nNadia",
      "I brought a jigsaw in to be framed and was told 2-3 weeks. It's now 7 weeks. I've rung the shop four times.\n\nN. Kowal",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("does not read a policy question about two missed appointments in a row as a complaint", () => {
    expect(
      actionsOf(
        "Can you remind me what our policy is on patients who miss two appointments in a row? Someone asked at reception.\n\nNadia",
      ),
    ).not.toMatch(/complaint/);
  });

  it("reads 'perhaps you could' and 'I wondered whether you might consider' as requests", () => {
    expect(
      actionsOf(
        "Dear Tom,\n\nWe're asking a few shops whether they'd donate a raffle prize, and I wondered whether you might consider a voucher. If you're " +
          "able to help, perhaps you could drop it in at the Town Hall.\n\nWith many thanks,\nNadia Kowal",
      ),
    ).toMatch(/^Reply to/);
  });
});

describe("complaints told as plain facts (part 11, round 26)", () => {
  const from = { name: "Carl Mottram", address: "carl.mottram@quaymail.example" };
  const actionsOf = (bodyText: string, subject = "Job 4471") =>
    analyse({ from, subject, bodyText }).suggestedActions.join(" ");

  it("reads a no-show without a word, work still not right, goods paid for and not come and a counted wrong as complaints", () => {
    for (const bodyText of [
      "You were due Monday. It's Wednesday. No call, no text, nothing.\n\nCarl",
      "The extractor fan is still not working. That's your second visit and £95 paid.\n\nCarl",
      "Where is my garden bench. Paid in full on the 3rd of March.",
      "I have never complained before but your skip has blocked our drive since Friday.\n\nCarl Mottram",
      "still waiting on ur quote for the fence. 3 weeks now",
      "hi, my overtime isnt on my payslip again. thats 4 weeks now and i put it on the timesheet every time\n\ncarl",
    ])
      expect(actionsOf(bodyText)).toMatch(/complaint/);
  });

  it("reads a council's report from the public and works that are an offence as complaints, but not a licence letter's general warning", () => {
    expect(
      actionsOf(
        "Dear Sir,\n\nThe Council has received reports from members of the public that rubble was tipped in the lay-by on Mill Road on two " +
          "occasions.\n\nPlease contact me within ten working days.\n\nR. Hume\nEnvironmental Enforcement",
        "Waste on Mill Road",
      ),
    ).toMatch(/complaint/);
    expect(
      actionsOf(
        "Dear Sir,\n\nThe railings were replaced in steel without the approval the consent requires. Works not in accordance with a listed building " +
          "consent are an offence.\n\nR. Hume\nConservation Officer",
        "12 High Street",
      ),
    ).toMatch(/complaint/);
    expect(
      actionsOf(
        "Dear Sir,\n\nYour street trading licence expires on 30 June. Please apply to renew it by 31 May. Please note it is an offence to trade without a valid licence.\n\nLicensing Team",
        "Licence renewal",
      ),
    ).not.toMatch(/complaint/);
  });

  it("does not read a denied complaint, a complaint to someone else, a place 'right in the middle' or 'not the worst thing' as a complaint", () => {
    for (const bodyText of [
      "Hi Sue,\n\nNot a complaint at all, just so you know the cat was a bit off her food after the visit. The vet thinks it was the heat.\n\nCarl",
      "Sue,\n\nThe haulier has lost our pallet again and I've put a formal complaint in with their head office. Your tiles now come Thursday.\n\nCarl",
      "Dear Sue,\n\nThank you for the mirror. We've put it right in the middle of the hall where everyone sees it.\n\nCarl",
      "Sue, the kiln is coming a week later than planned, which isn't the worst thing as it gives us time to clear the shed.\n\nCarl",
      "Sue, no call or text needed on Friday, the key is under the mat as usual.\n\nCarl",
    ])
      expect(actionsOf(bodyText, "Update")).not.toMatch(/complaint/);
  });

  it("reads text-speak 'can u' as a request", () => {
    expect(
      actionsOf("hiya can u lend me 30 quid for the coach on saturday, ill pay u back friday x", "coach"),
    ).toMatch(/^Reply to/);
  });
});
