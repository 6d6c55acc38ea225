import { describe, expect, it } from "vitest";
import { analyzeEmail } from "./analyze.ts";

/** An ask's negative words name the task, not a mood (issue 18: plain requests never read negative). */

const label = (subject: string, body: string) =>
  analyzeEmail({
    from: { name: "Jordan Smith", address: "jordan.smith@example.com" },
    subject,
    bodyText: body,
    bodyHtml: null,
  }).sentiment;

describe("plain asks", () => {
  it("reads requests about errors, delays and missing items as not negative", () => {
    expect(label("", "Could you look at the error in the deploy log when you get a minute?")).not.toBe(
      "negative",
    );
    expect(
      label(
        "Boston order",
        "Hi Sam,\n\nCan we talk about the delay on the Boston order tomorrow?\n\nThanks,\nJo",
      ),
    ).not.toBe("negative");
    expect(label("", "Is there a problem with me leaving early on Friday?")).not.toBe("negative");
    expect(label("", "Could you pass the client's complaint on to Dana so she can answer it?")).not.toBe(
      "negative",
    );
  });

  it("keeps an ask that carries an attitude negative", () => {
    expect(label("", "Why is my refund still not here after three weeks? This is unacceptable.")).toBe(
      "negative",
    );
    expect(label("", "Could you explain why the order arrived damaged again?")).toBe("negative");
    expect(label("", "Can you stop sending me this terrible spam?")).toBe("negative");
  });

  it("reads an ask set up by a short neutral statement or closed by a courtesy as not negative", () => {
    expect(
      label(
        "",
        "We're running a short session on handling customer disputes. Would you be up for presenting the second half?",
      ),
    ).not.toBe("negative");
    expect(label("", "Is the killer sudoku competition on again this Friday? Count me in if so.")).not.toBe(
      "negative",
    );
    expect(
      label("", "I'm off on sick leave until Monday. Could you take my calls with the depot meanwhile?"),
    ).not.toBe("negative");
    expect(
      label("", "We've lost tracking on the Leeds van since noon. Can you ring the driver for a position?"),
    ).not.toBe("negative");
    expect(label("", "Could you return the signed complaint form by Thursday? I'll pass it on.")).not.toBe(
      "negative",
    );
  });

  it("reads names of losses and damaged goods inside an ask as the task, not a mood", () => {
    expect(label("", "Could you send me the profit and loss statement for the shop?")).not.toBe("negative");
    expect(label("", "Can you tell me how to write off the damaged stock from March?")).not.toBe("negative");
  });

  it("keeps a statement with a complaint before an ask negative", () => {
    expect(
      label("", "I am really disappointed with how this was handled. Could you call me back today?"),
    ).toBe("negative");
    expect(label("", "The parcel arrived damaged. Can you send a replacement?")).toBe("negative");
  });

  it("leaves a statement of a problem to the model", () => {
    expect(label("", "The shipment is late again and the customer is furious.")).toBe("negative");
  });
});

describe("plain asks about worries and missed events (part 5)", () => {
  it("reads asking whether to worry, and a reason naming an illness, as not negative", () => {
    expect(
      label("", "Do we need to worry about the audit on Wednesday, or is it just a routine check?"),
    ).not.toBe("negative");
    expect(
      label(
        "",
        "Could you let me know the date of the next safeguarding training? I missed the last one because of my son's illness.",
      ),
    ).not.toBe("negative");
  });

  it("still reads a writer's own worry as negative", () => {
    expect(label("", "I'm really worried and upset. Why has nobody called me back about the audit?")).toBe(
      "negative",
    );
  });
});

describe("courtesies and mild worries around an ask (part 5, round 7)", () => {
  it("reads 'No worries if it's beyond saving' and 'a little worried ... could we' as not negative", () => {
    expect(
      label(
        "",
        "Any chance you could look at my broken hairdryer on Saturday? No worries if it's beyond saving.",
      ),
    ).not.toBe("negative");
    expect(
      label(
        "",
        "I'm a little worried we won't have time on the wedding morning - could we start the bridesmaids at 8?",
      ),
    ).not.toBe("negative");
  });
});

describe("plain asks (part 6, round 10)", () => {
  it("reads a worry about one's own mix-up before a question as not negative", () => {
    expect(
      label("", "I'm worried I've got the times muddled – is the quiz night on the 7th or the 14th?"),
    ).not.toBe("negative");
  });
});

describe("plain asks (part 6, round 11)", () => {
  it("reads a reminder, a 'just checking whether', someone else's worry and damaged stock named as a thing as not negative", () => {
    expect(label("", "Just a reminder that you can pay the late fee for the overdue book online.")).not.toBe(
      "negative",
    );
    expect(
      label("", "Just checking whether the injury on the loading bay went in the accident book?"),
    ).not.toBe("negative");
    expect(
      label("", "Dad asked if you could ring him about Sunday. He's worried the oven won't cope!"),
    ).not.toBe("negative");
    expect(
      label("", "Could you tell me who deals with damaged stock at your end? A few tins were dented."),
    ).not.toBe("negative");
  });
});

describe("plain asks (part 7, round 12)", () => {
  it("reads 'I wondered if you could' and a worry no one will have as not negative", () => {
    expect(
      label("", "I wondered if you could water the plants while we're away, in case the alarm goes off."),
    ).not.toBe("negative");
    expect(
      label(
        "",
        "Could you tell everyone the smoke alarm test is at noon, so nobody's worried when it sounds?",
      ),
    ).not.toBe("negative");
  });
});

describe("plain asks (part 7, round 14)", () => {
  it("reads a fraud panel, a cancelled lesson, 'at a loose end' and 'nobody needs to be worried' as no mood", () => {
    expect(
      label("", "Any chance you could cover the phones for an hour while I sit on the fraud panel?"),
    ).not.toBe("negative");
    expect(
      label(
        "",
        "Is it OK if I bring the kids on Sunday? Their football was cancelled, so they're at a loose end.",
      ),
    ).not.toBe("negative");
    expect(
      label("", "Can you tell the team the alarm test is at noon? Nobody needs to be worried, it's routine."),
    ).not.toBe("negative");
  });
});

describe("plain asks in a dental surgery's mail (part 8, round 17)", () => {
  it("reads an apology for bothering the reader or for one's own slip, then an ask, as no mood", () => {
    for (const body of [
      "Sorry to bother you on your holiday! Would you be able to sign the rota when you get a minute?",
      "Hi, I'm afraid I've made an error on my expenses, I put £90 instead of £60. Could you correct it before Friday?",
      "sorry sorry, forgot to return your drill! can I drop it round tonight?",
    ])
      expect(label("", body)).not.toBe("negative");
  });

  it("keeps an apology that carries an attitude out of the courtesies", () => {
    expect(label("", "Sorry, but this is the worst service I have ever had. Can you call me today?")).toBe(
      "negative",
    );
  });

  it("reads training on abuse awareness, a panic alarm test and handling patient complaints as no mood", () => {
    for (const body of [
      "Please complete the safeguarding and abuse awareness training module by the end of the month.",
      "Could someone test the panic alarm under the front desk? It's the routine quarterly check.",
      "Could we put handling patient complaints on the agenda for the next practice meeting?",
    ])
      expect(label("", body)).not.toBe("negative");
  });
});

describe("plain asks with words said in jest (part 9, round 18)", () => {
  it("reads strongly negative words that judge nothing ('crime scene', 'dying to', 'murdered', 'be gutted') as no mood", () => {
    for (const body of [
      "Could you pick up some washing-up liquid on the way home? The kitchen is an absolute crime scene.",
      "Any chance you could send me your June dates? Two couples are dying to book you.",
      "Fancy five-a-side on Tuesday? We got murdered last week and need a keeper.",
      "Could you get a photo of the whole choir on the steps? They'd be gutted to miss it!",
    ])
      expect(label("", body)).not.toBe("negative");
  });

  it("still reads an ask that judges the reader's service as negative", () => {
    expect(
      label("", "Could you call me today? Your booking system is useless and I hate chasing this."),
    ).toBe("negative");
  });
});
