import { COMPLAINT_MARGIN, complaintLogOdds } from "./complaint/score.ts";
import { type EmailFeatures, NO_REPLY_NOTICE } from "./features.ts";
import type { UrgencyResult } from "./urgency.ts";

/**
 * What the mail asks of the reader, the one thing the suggested actions and the response time
 * follow. In order of precedence:
 *   complaint     a person is unhappy with something (a refund, a damaged order, no answer)
 *   meeting       a meeting or call to set up, move or join, or an invitation
 *   deadline      something to do by a date (a password to change, a form by Friday)
 *   question      a direct question to the reader
 *   request       a request to do something
 *   notification  machine-sent notice (no-reply senders, services): nothing to answer
 *   information   a person letting the reader know something
 */
export type Intent =
  | "complaint"
  | "meeting"
  | "deadline"
  | "question"
  | "request"
  | "notification"
  | "information";

export const COMPLAINT =
  /\b(unacceptable|(?<!\b(would|will|'d|'ll) be (very |so |really |terribly )?)disappointed|disappointing|complain(t|ing)?|frustrat\w*|angry|upset|not happy|furious|terrible service|poor service|(?<!\b(at|isn't the|is not the|wasn't the|not the) )worst(?! (hit|affected|case|of (it|the)))|ridiculous|still (have not|haven't|not) (received|heard|got)|no (answer|reply|response) (yet|so far)|(second|third|fourth|fifth|sixth|umpteenth|\d+(st|nd|rd|th)) time|if this happens again|i expect (a|an) (phone call|call|reply|response|apology|explanation)|(arrived|came) (damaged|broken)|damaged|broken again|want (a|my|the|our) (refund|money back)|full refund|demand|(not|isn't|is not) (acceptable|good enough)|charged (twice|double)|double[- ]charged|(second|third) (month|week|time) (running|in a row)|raise (a|my|this|an) (concern|complaint)|(mind|excuse) me raising|i('m| am) (really |very )?concerned (that|about)|(more|better|enough) (notice|warning) in (the )?future|gutted|(get|have|want) (some of |part of )?(my|our|the) money back|nothing like (what|it|the)|(isn't|is not|wasn't|was not) what (i|we) (expect|expected|paid for)|nobody (told|called|rang|contacted|warned) (me|us)|i('d| would) (appreciate|like) an explanation|refund (the|this|that) (charge|fee)|refund (me|us)|(it is|it's|it has been|it's been) (now )?(over|more than|nearly|almost) (a|one|two|three|four|five|six|\d+) (days?|weeks?|months?) (and|but) (i|we) (have not|haven't|still|'ve not)|nor (a|any) (reply|answer|response)|put (it|this|things|that) right(?! (in|on|at|by|next|there|here|up|under|over|behind|beside|into|onto|outside|inside|back|where|across|along)\b)|at no (further|extra|additional) (charge|cost)|(don't|do not) (like|want|wish) to (make a fuss|complain|moan)|(didn't|did not) go down well|(rather|a bit|quite|very) put out|(i'm|i am) sure (it|this|that) (was|is) an oversight|(must|may|might) have been an oversight|(i'm|i am) sure (it|this|that) (was|is) (just |only )?(a|an) (simple |genuine |honest )?(oversight|mistake|error)|(rather|a bit|a little|slightly|quite|very|somewhat) taken aback|(rather|a little|a bit|slightly|quite|very|really|most|somewhat|pretty|extremely) (unhappy|annoyed|cross|fed up|unpleasant)|beyond a joke|(hope|trust) this (won't|will not|doesn't|does not) (be repeated|happen again)|(sorry|apologies) to be that (neighbour|person|customer|guy|one)|(this|it) never used to happen|(i've|i have|we've|we have) (mentioned|raised) (this|it) (to \w+ )?(a couple of|several|a few|many|two|three|four|five|\d+) times|(should|would) have been (asked|told|consulted|warned|informed) (first|beforehand|before)|nobody mentioned|(didn't|did not|don't|do not) want to (make things awkward|fall out)|(has|'s) become (most|every) (nights?|days?|evenings?|mornings?|weekends?)|taken the shine off|unfortunately\b[^.!?]{0,80}\bnot the\b[^.!?]{0,60}\b(requested|ordered|asked for|agreed)|(i|we) do need to (mention|point out|flag)|(three|four|five|six|several|\d+) times in (one|a|the same|a single) (day|week|month)|(can't|cannot|can not) (keep|go on|carry on) (happening|like this)|(sorry|apologies) to (bring|raise) (this|it) up again|(we|i) (did|have|had) (already )?(mention|raise|flag)(ed)? (it|this) ((to|with) you )?(back|before|previously|last|in|on)|(would|should) have expected (it|this|that|them|something|someone|somebody|you|your \w+|the \w+) to\b|(a|one|some) (call|text|message|phone call|heads-?up|e-?mail|note) would have (helped|been nice|been good)|(don't|do not) want to make a (big thing|big deal|fuss)|(second|third|fourth|fifth|sixth|\d+(st|nd|rd|th)) (\w+ )?(in a row|running)|(rather|a bit|quite|very|honestly) put off|(hate|don't like|do not like) to (even )?(mention|raise|bring (this|it) up|complain)|(not|n't) trying to (cause|make) (trouble|a fuss|problems|a scene)|(should|ought to) have been (addressed|resolved|sorted|fixed|dealt with) by now)\b/i;
// Grievances put without a complaint word, by family: a broken assurance ("you assured me Harvey
// would stay with Kerry"), an expectation the reader fell short of ("I would expect a school of your
// standing to..."), a step up ("it has gone on long enough", "rather than involve the council"),
// a reproach ("it would have been nice to know", "surely it could wait", "nobody thought to ring"),
// dismay ("rather surprised to find", "frankly baffled") and the cost to others ("it reflects
// poorly on all of us", "it is unfair on candidates"). Pleasant surprise is no grievance.
const GRIEVANCE = new RegExp(
  [
    String.raw`\byou (assured|promised|guaranteed) (me|us|him|her|them|that)\b`,
    String.raw`\bwhat (has|had|was) been agreed (isn't|is not|wasn't|was not|hasn't been|has not been) (done|honoured|kept)\b`,
    String.raw`\b(i|we) (do |would |'d |did |had |really )?expect(ed)? (better|more|this to stop|it to stop|that to stop|what (i|we) (ask|asked|paid for)|(a|an) (\w+ ){0,2}(of your|like yours))`,
    String.raw`\bfor (£|\$|€)\d+[^.!?]{0,20}\b(i|we)('d| would| do)? expect(ed)?\b`,
    String.raw`\b(has|have) (now )?gone on (long )?enough\b|\b(tried|trying) to be (reasonable|patient|understanding)\b|\bwithout (result|success|any (change|improvement|reply|response))\b`,
    String.raw`\b(involve|contact|report (this|it|you) to|go to|take (this|it) (up )?with) (the )?(council|police|landlord|ombudsman|trading standards|small claims)\b`,
    String.raw`\b(no wish|don't want|do not want|didn't want|did not want) to fall out\b`,
    String.raw`\b(would|might) have been (nice|good|polite|courteous|helpful) (to (know|hear|be told)|if)\b`,
    String.raw`\b(nobody|no one|no-one) (thought|bothered) to\b|\bsurely (it|that|this|you|they|someone|somebody) (could|can|should|would)\b|\b(it's|it is) not (hard|difficult|rocket science)\b`,
    String.raw`\b(rather|quite|very|most|frankly|honestly|completely|utterly|really|a little|a bit|somewhat) (surprised|baffled|astonished|amazed|appalled|shocked|staggered|dismayed|bemused) (to|that|by|at|when|how)\b`,
    String.raw`\breflects (poorly|badly) on\b|\b(is|it's|that's|was) (unfair|not fair) on\b|\b(this|it|that) is not good\b`,
    String.raw`\b(raise|flag|bring up) (the matter of|an issue|a problem|a concern|the issue of|my concerns?)\b`,
    String.raw`\b(i|we) (ask|asked|said|told you|requested) (very |quite )?(clear(ly)?|specifically|explicitly|expressly)\b`,
    // a chase that keeps count ("As I mentioned (several times now)", "I've stopped counting how
    // many times", "in case they've all ended up in your junk folder", "I've rung FIVE times")
    String.raw`\b(stopped|lost) count(ing)?( of)? how many times\b|\b(several|many|a few|umpteen|countless|so many) times now\b|\bin case (it|they|that|this|my \w+)( ha(s|ve)| 'v?e)?( somehow)?( all)? (got lost|ended up|gone|went)\b|\b(couldn't|could not|can't|cannot) get hold of you\b`,
    // irony and a refusal to pay ("Thanks for nothing", "I'm sure there's a perfectly good reason",
    // "No rush getting back to me obviously", "I am not prepared to settle the invoice")
    String.raw`\bthanks for nothing\b|\b(i'm|i am) sure (there's|there is) a (perfectly )?(good|reasonable|simple) (reason|explanation)\b|\bno rush\b[^.!?\n]{0,40}\bobviously\b|\b(not prepared to|refuse to|won't be|will not be|forget about me) (settle|settling|pay|paying)\b`,
    // a promise recalled against what happened ("you literally said 9", "Last month you said we
    // will share the early shifts but nothing change"), and fairness
    // a grievance raised again, and plain displeasure ("I'm sorry to have to email about this
    // again", "I did mention it to you back in February", "I'm not impressed", "there is no excuse
    // for rudeness", "more or less put the phone down on me")
    String.raw`\b(sorry|apologies) to have to (e-?mail|write|raise|mention|contact you|chase)( you)?( about)? (this|it|again)\b|\b(i'm|i am|we're|we are) (really |frankly |honestly )?not (impressed|amused)\b|\bno excuse for\b|\bput the phone down on (me|us|my \w+)\b|\b(extremely|very|incredibly|really|quite) (rude|rudely|abrupt|abruptly|dismissive|dismissively)\b`,
    // a chase left unanswered ("I've emailed twice and haven't had a reply to any of them", "I'm
    // not going to chase you again"), a disputed bill ("I'll pay for the two visits but not the
    // rest"), doubt that the work works, and an official's breach
    String.raw`\b(haven't|have not|hasn't|has not) (answered|replied to|responded to|had a (reply|response|answer) to) any( of them)?\b|\bnot going to chase (you |this )?(again|any more|anymore)\b|\b(i'll|i will|we'll|we will) (only )?pay for\b[^.!?\n]{0,60}\bbut not\b|\bnot convinced (it's|it is|that|this|the)\b|\b(invoice|bill|charge)s? (is |are )?disputed\b|\bdisput(e|ing) (the|this|your) (invoice|bill|charge)\b|\b(serious|clear|further|significant) breach of\b|\bnot the first (concern|complaint|time|incident|occasion)\b`,
    // what was agreed against what came ("I even brought the swatch in", "Neither was discussed
    // with me, I did not ask for them", "I only found out because", "that's four in a row now"),
    // what the writer wants put right ("I need it sorting", "I should like the £35 difference
    // refunded", "I'm not paying an extra £64"), and a creditor's stop or a landlord's concern
    String.raw`\b(i|we) even (brought|sent|told you|showed you|gave you|wrote|marked|asked|paid)\b|\b(not|never|wasn't|was not|weren't|were not) (discussed|agreed) with (me|us)\b|\b(i|we) (did not|didn't|never) ask(ed)? for (them|it|this|that|those)\b|\b(i|we) only found out (because|when|by|from)\b|\b(that's|thats|that is|this is|it's|its) (now )?(two|three|four|five|six|\d+) (\w+ )?in a row\b|\b(need|needs|want) (it|this|them) (sorting|sorted|putting right|fixing|redoing|redone)\b|\b(needs|need) (actually |properly )?(sorting|fixing) this time\b|\b(should|would) like (the|my|our) (£\d+ )?(difference|money|deposit|payment) (refunded|back|returned)\b|\b(i'm|i am|we're|we are) not paying (an extra|extra|for|the|that|this|any)\b|\b(had|received|got) no (reply|response|answer) to any\b|\b(account|order)s? (has been |have been |is |are )?(now )?(placed |put )on stop\b|\b(raised|mentioned) (it|this) (with [\w ]{1,20} )?more than once\b|\b(a|of) (particular|real|serious|great|grave) concern\b|\bputting (it|this) in writing\b|\b(rung|rang|called|phoned|emailed|texted|messaged|written) (you |the \w+ )?(twice|(three|four|five|six|seven|eight|ten|several|\d+) times)\b|\bnot (really )?something (i|we) can (hand|give|use|send|show|sell)\b|\b(i'm|i am) afraid there (are|is|were|was) (a |some )?(problems?|issues?)\b|\b(that's|it's|which is) costing (us|me)\b|\b(was|were) told\b[^.!?\n]{0,40}\b(days?|weeks?|months?)\b[.!,;]?\s+(it's|it is|it has been) (now )?`,
    String.raw`\byou (literally|definitely|clearly) said\b|\byou said\b[^.!?\n]{0,80}\bbut (nothing|it|they|he|she|you|no one|nobody|still)\b|\b(this|it|that) is not fair\b|\b(this|it's|it is|that's) (so |really |totally )?unfair\b|\b(don't|dont|do not) want to make (a )?(big )?(drama|thing|deal|fuss|scene)\b`,
    // a no-show without a word ("Not a call, not a text"), work still not right, goods paid for and
    // not come ("Where is my fire surround. Paid in full in JANUARY."), a first fuss ("I've never
    // made a fuss before"), a chase of the reader's own call ("still waiting on ur call back"), a
    // wrong repeated and counted ("not on it again. thats 3 saturdays now"), and a council's
    // report from the public or an offence under a consent
    String.raw`\b(not|no) (a )?(call|phone call|text|message|email)(, (not|no)| nor) (a )?(call|text|message|email|word)\b|\bnot (so much as|even) a (call|phone call|text|message|email|word)\b|\bstill (not|isn't|is not|won't|doesn't|does not|hasn't been|has not been) (working|fixed|sorted|repaired|right)\b|\bwhere('s| is| are) (my|our)\b[^?\n]{0,60}\bpaid (in full|for it|upfront|up front)\b|\b(i've|i have|we've|we have) never (made a fuss|complained|moaned|said anything)\b|\bstill waiting (on|for) (your|ur|you)\b|\bagain\b[^!?\n]{0,20}\b(that's|thats|that is) (now )?(two|three|four|five|six|\d+) (\w+ ){0,2}now\b|\bworking for nothing\b|\b(received|had) (reports|a report|complaints|a complaint|calls|a call) (from|that)\b[^.!?\n]{0,40}\bmembers? of the public\b|\bfollowing (a|an) (call|report|complaint) from a member of the public\b|\b(are|constitutes?) an offence\b`,
  ].join("|"),
  "i",
);

/** A person is unhappy with the reader: a complaint cue or a grievance put without one. */
export function complains(text: string): boolean {
  return COMPLAINT.test(text) || GRIEVANCE.test(text);
}

const MEETING =
  /\b(meeting|call|review|appointment|interview|sync|catch-?up|demo|workshop|session|one-to-one|1:1|stand-?up|invitation|invite|visit|inspection|viewing|fitting|consultation|lesson|rehearsal|walk-?through|handover|tasting|check-?up|get-?together|meet[- ]and[- ]greet)\b|\b(tomorrow|today|tonight|(mon|tues|wednes|thurs|fri|satur|sun)day|this week|next week)'s \w+/i;
// A meeting asked for as time in the reader's diary ("if you could find half an hour ... drop it in my diary").
const DIARY_TIME =
  /\b(find|grab|spare|book) (half an hour|an hour|\d+ (minutes|mins)|a (slot|time|few minutes))\b[^.!?]{0,80}\b(diary|calendar|with you|together|today|tomorrow|this week|next week)\b|\b(drop|put|stick|pop) (it|something|a slot|a meeting|some time) in (my|the|our|your) (diary|calendar)\b/i;
const MOVE =
  /\b(move[sd]?|moving|push|reschedul\w*|re-?book\w*|postpone|shift|bring (it )?forward|change the time|another time|new time|cancel\w*|call(ed)? off|(is|'s) off|(won't|will not|isn't|is not) (be )?(going ahead|go ahead|happening)|(is|are) (still )?going ahead|just to confirm|(just confirming|^\s*confirming) (our|the|your|my|tomorrow's|today's|(mon|tues|wednes|thurs|fri|satur|sun)day|\d)|(is|are|'s) (now )?confirmed)\b/i;
const INVITATION =
  /\b(fancy (an? )?(coffee|drink|pint|cuppa|lunch|dinner|walk|catch-?up|meet-?up|bite)|fancy (meeting|getting|grabbing|coming)|i (could|can) do (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|join (us|me)|would you like to (come|join)|can you (join|come)|are you (free|coming|available)|want to (join|come|grab)|come (over|along)|let me know if (that|this) time works|does .{0,20} work for you|works for you|(would|could|should) suit (me|you|us)|let'?s (meet|find (a )?(time|\d+ minutes|an hour|half an hour)|set up a (call|meeting|time)|schedule|get together|grab (a )?(coffee|lunch|dinner))|(can't|cannot|can no longer|won't be able to) (do|make) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today)|(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b[^.!?\n]{0,25}\binstead\s*\?|same time (next week|tomorrow|on (mon|tues|wednes|thurs|fri|satur|sun)day)( instead)?\s*\?|(cancel|postpone|rearrange|reschedule|move)\w* (on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|tonight)\b|(wondered|wondering) if (i|we) (might|could|can) (drop|pop|come|call|swing) (by|in|round|over)|(drop|pop|come|call) (by|in|round|over) for (half an hour|an hour|\d+ (minutes|mins)|a (quick )?(chat|coffee|few minutes))|(would|it'd|it would) be (good|great|useful|nice|helpful) to (get together|meet|catch up|sit down|have a (chat|call|meeting|quick call))|we could (do|have) a (quick )?(call|meeting|chat)|(i'll|i will|we'll|we will) be (at|with you|there|on site|over|round)\b[^.!?\n]{0,40}\b(at|for|by|from) \d{1,2}(:\d\d|\.\d\d|\s*(am|pm))|see you (then|there|on (mon|tues|wednes|thurs|fri|satur|sun)day|at \d)|\b(is|are|will be|'ll be|'s) (coming|calling|visiting|popping) (round |over |in |by )?(on|this|next|tomorrow)\b[^.!?\n]{0,50}\b(between \d{1,2}|at \d{1,2}|from \d{1,2}))\b/i;
const DEADLINE_TASK =
  /\b(before|by|until|no later than|deadline|due|closes?|expires?|within|lapses?|runs? out|ahead of)\b|\bno longer\b.{0,40}\bafter\b/i;
// A request put indirectly ("I'd appreciate it if you could...", "it would be great to have your comments").
const REQUEST =
  /\b(please|pls|kindly)\b|\b(can|could|would|will) (you|u)\b|\blet (me|us) know\b|\bget back to (me|us)\b|\bneed (you|your)\b|\brsvp\b|\bif you (could|can|would|don't mind|have a (moment|minute|chance))\b|\b(i|we)('d| would) (really |very much |so much |greatly |genuinely )?(appreciate|love|like)\b|\b(i|we)('d| would) need (the|a|an|you|your|it|this|that|them|my|our)\b|\b(i|we)('d| would| should) be (very |most |so )?grateful\b|\b(i|we) (would|must|will) ask (you|that you) to\b|\b(i'm|i am|we're|we are) hoping (that )?you (might|could|can|would|will)\b|\b(is|are) hoping (that )?you('ll| will| might| could| can| would)\b|\bwould (love|appreciate)\b|\bit would be (great|helpful|good|nice) (if|to)\b|\b(send|forward|give|show) (me|us)\b|\bit (would|will|'d) help( a lot| a great deal| me| us)? (if|to)\b|\b(when|whenever|if) you (get|have) a (chance|moment|minute|sec|second)\b|\b(pop|send|drop|post|pass|hand|bring|email|text|ping|shoot) (it|them|this|that|one|a copy|a photo|a pic|the \w+) (back|over|across|my way|our way|to me|to us)\b|\b(would be|is) (much |greatly |really )?appreciated\b|\bit('d| would) be (really |very |super |so )?(great|helpful|good|nice|useful|ideal|lovely) (if|to)\b|\b(i|we) need (access|a copy|the|a|your)\b|\b(i|we)('ll| will| shall) need (a copy|copies|the|a|an|your)\b|\bperhaps you (could|might|can)\b|\b(wondered|wondering) (whether|if) you (might|could|would) (consider|be willing|be able)\b|\b(might|may|could|would) be worth (someone |you |somebody )?(having|taking|getting|giving)\b|\b(needs?|requires?|awaiting|waiting (for|on)|is missing) your (signature|approval|sign-?off|input|review|go-ahead|decision|answer|confirmation|initials)\b/i;

// Someone else's complaint named as a thing ("Mr Wilkes has referred his complaint to our service",
// "Complaint ref FDS-118", "I've put a formal complaint in with their depot"), or one denied ("Not a
// complaint at all"): the writer is not complaining about the reader.
const THIRD_PARTY_COMPLAINT =
  /\b(referred|escalated|forwarded|logged|upheld|investigat\w*) (his|her|their|the|a|this) complaint\b|\b(his|her|their|the customer's|the client's|mr\.? \w+'s|mrs\.? \w+'s|ms\.? \w+'s) complaint\b|\bcomplaints? (ref(erence)?|number|no\.?|#)|\b(the|this|that) complaint (concerns|is about|relates to|was (made|raised|received))\b|\b(consider|investigate|review|handle|resolve|assess) (the|this|that) complaint\b|\b(put|made|lodged|filed|raised|submitted) (a |an )?(formal |official )?complaint (in )?(with|to|against) (their|them|his|her)\b|\b(this is not|this isn't|it's not|it is not|not) a complaint\b|\bno complaints\b|\bnot complaining\b/gi;

// "We still have not received the certificate": a chase, which with a date to meet is a deadline.
const CHASE = /\bstill (have not|haven't|not) (received|heard|got)\b/gi;

export function detectIntent(features: EmailFeatures, urgency: UrgencyResult): Intent {
  const text = `${features.subject}\n${features.text.slice(0, 3000)}`
    .replace(THIRD_PARTY_COMPLAINT, " ")
    .replace(NO_REPLY_NOTICE, " ");
  const person = !features.automated && !features.machineSender && !features.bulk;
  // Read once: the cue lists are long, and a chase's own words are the only difference.
  const complaint = person && complains(text);
  const unchased = text.replace(CHASE, " ");
  const chaseWithDate =
    urgency.deadline !== null &&
    DEADLINE_TASK.test(text) &&
    asksToAct(text) &&
    !(unchased === text ? complaint : complains(unchased));
  if (complaint && !chaseWithDate) return "complaint";
  // The meeting must be what is asked about, not a date mentioned in passing ("...before the board meeting").
  const askedAboutMeeting = features.sentences
    .slice(0, 30)
    .some((s) => MEETING.test(s.text) && (MOVE.test(s.text) || /\?\s*$/.test(s.text)));
  if (person && (askedAboutMeeting || INVITATION.test(text) || DIARY_TIME.test(text))) return "meeting";
  if (urgency.deadline && DEADLINE_TASK.test(text) && (person || !features.bulk) && asksToAct(text))
    return "deadline";
  if (!person) return "notification";
  if (urgency.question) return "question";
  // An instruction alone ("Sign in to view it") asks something only when a person writes it.
  if (REQUEST.test(text) || (IMPERATIVE.test(text) && !ROLE_ADDRESS.test(features.fromAddress)))
    return "request";
  // Complaints told without any words the rules know ("I even brought the swatch in") fell back
  // to information; a word model trained on many mailboxes' complaints reads them (decision 0048).
  if (complaintLogOdds(features.subject, features.text) >= COMPLAINT_MARGIN) return "complaint";
  return "information";
}

// Verbs a notice opens a task sentence with ("Log in to the portal and choose your plan").
const TASK_VERB =
  "change|update|add|install|enrol+|enroll|register|sign( in| up)?|log ?in|submit|complete|finish|start|take|review|fill( in| out)?|book|pay|renew|set up|confirm|reply|respond|send|return|upload|enter|choose|select|pick|verify|activate|attend|schedule|provide|acknowledge|accept|claim|apply|vote|reset|back up";

// An imperative sentence: the task verb opens it, after an optional "Please" or "Remember to", or
// after a leading purpose or condition clause ("To keep your access, change your password").
export const IMPERATIVE = new RegExp(
  `(^|[.!?:]\\s*|(?<![.!?:\\n])\\n\\s*)((to|if|once|when|before|after)\\b[^.!?\\n]{0,80},\\s*)?((please|kindly|just|remember to|be sure to|don't forget to|do not forget to)\\s+)?(${TASK_VERB})\\b`,
  "im",
);

// Shared role mailboxes: their instructions are notices, not one person's request.
const ROLE_ADDRESS =
  /^(billing|accounts?|ap|ar|finance|hr|it|payroll|security|legal|facilities|notices?|statements?|alerts?|orders?|shipping|customer-?service|help|helpdesk|service-?desk|sales|contact|office|reception|events?|people|compliance|reminders?|mailer|messages?)([-._][a-z]+)*@/i;

/** A task for the reader: an imperative or a request, not just a date in a notice. */
function asksToAct(text: string): boolean {
  return (
    REQUEST.test(text) ||
    IMPERATIVE.test(text) ||
    /\b(must|need to|needs to|have to|has to|required to|make sure|action required|is due|are due|overdue|mandatory)\b/i.test(
      text,
    ) ||
    // A direction to a named party ("The court directs that the applicant's solicitors lodge the bundle").
    /\b(directs?|orders?|requires?) that\b/i.test(text) ||
    // A need with a date ("procurement needs the questionnaire back by 14/02").
    /\b(need|needs|require|requires|expect|expects)\b[^.!?\n]{0,100}\b(by|before|no later than)\b/i.test(
      text,
    ) ||
    // Something of the reader's still outstanding, or what happens if they do nothing.
    /\b(ha(s|ve) not (yet )?been|not yet) (submitted|completed|signed|returned|paid|approved)\b|\bif you (don't|do not|fail to|haven't|have not)\b/i.test(
      text,
    ) ||
    new RegExp(`\\byou can (${TASK_VERB}|make)\\b`, "i").test(text) ||
    // A nudge: "it's worth getting them in before then", "four of your reports still don't have a
    // completed review", "we'd suggest getting it in the week before".
    /\b(it's|it is|it'd be|it would be) (worth|best|wise|a good idea) (getting|doing|sending|sorting|completing|filling|submitting|returning|finishing|booking|having|making)\b|\bstill (don't|do not|doesn't|does not|haven't|have not) (have )?(a |an |their |your )?(completed|submitted|signed|returned)\b|\b(i|we)('d| would) (suggest|recommend|advise)\b|\b(haven't|have not|hasn't|has not) (yet )?(paid|submitted|returned|signed|completed|sent|booked|renewed)\b|\b(sign-?ups?|registrations?|applications?|bookings?|entry|entries|enrol+ments?|nominations?)\b[^.!?\n]{0,40}\b(close|closes|closing|end|ends|shut|shuts)\b/i.test(
      text,
    ) ||
    // What lapses unless the reader acts ("it lapses on 31 May unless the module has been completed").
    /\b(lapses?|expires?|runs? out|ends?|stops?)\b[^.!?\n]{0,60}\bunless\b/i.test(text) ||
    // An invoice or balance with a due date asks to be paid.
    /\b(invoice|balance|amount|payment)\b(?:[^.!?\n]|\.\d){0,80}\bdue\b/i.test(text)
  );
}

/**
 * The task of a deadline mail in a few words: the mail's own first instruction ("Set up the
 * Authenticator app"), else what it names ("Change your password").
 */
export function deadlineTask(text: string): string {
  const instruction = instructionOf(text);
  return instruction ?? namedTask(text);
}

// A dot inside a word ("river-tools.com", "v2.1") does not end the instruction.
export const INSTRUCTION = new RegExp(
  `(?:^|[.!?:]\\s*|(?<![.!?:\\n])\\n\\s*)(?:(?:please|kindly)\\s+)?((?:${TASK_VERB})\\b(?:[^.!?\\n]|\\.(?=\\w))*)`,
  "im",
);

/** The first instruction up to its deadline, link or clause break, at most 8 words. */
function instructionOf(text: string): string | null {
  const match = INSTRUCTION.exec(text);
  if (!match?.[1]) return null;
  const words = match[1]
    .split(
      /(?<!\s)\s+(?:before|by|until|no later than|within|at https?:|at www\.|https?:|or you|to avoid|so that)\b|[,;(]/i,
    )[0]
    ?.trim()
    .split(/\s+/);
  // "Change it", "Renew yours": the object is named elsewhere, so name the task instead.
  if (
    !words ||
    words.length < 2 ||
    words.length > 8 ||
    /^(it|them|this|that|yours|one)$/i.test(words[1] ?? "")
  )
    return null;
  const phrase = words.join(" ");
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

function namedTask(text: string): string {
  if (/\b(multi-?factor|mfa|authenticator|2fa|two-factor)\b/i.test(text))
    return "Set up multi-factor sign-in";
  if (/\bpassword\b/i.test(text)) return "Change your password through your usual sign-in page";
  if (/\b(timesheets?|hours)\b/i.test(text)) return "Enter your hours";
  if (/\bexpenses?\b/i.test(text)) return "Submit your expenses";
  if (/\b(training|course|module)\b/i.test(text)) return "Complete the training";
  if (/\b(enrol+|enroll|enrolment|enrollment)\b/i.test(text)) return "Enroll";
  if (/\b(register|registration)\b/i.test(text)) return "Register";
  if (/\b(install|updates?)\b/i.test(text) && /\b(laptop|computer|device|software)\b/i.test(text))
    return "Install the updates";
  if (/\b(survey|form|fill)\b/i.test(text)) return "Fill in the form";
  if (/\b(renew|renewal)\b/i.test(text)) return "Renew it";
  if (/\bapprov/i.test(text)) return "Approve it";
  if (/\b(sign|signature)\b/i.test(text)) return "Sign it";
  if (/\b(pay|paid|invoice|payment|rent|fees?)\b/i.test(text)) return "Pay it";
  if (/\b(book|reserve)\b/i.test(text)) return "Make the booking";
  if (/\b(direct deposit|bank details|payroll)\b/i.test(text))
    return "Update your details in the HR system yourself";
  return "Do what is asked";
}

/** "before February 28" for "by February 28", "within 3 days" for "in 3 days". */
export function byDeadline(text: string | undefined): string {
  if (!text) return "before the deadline";
  const span = /^(in|within)(?:\s+(?=\S)|\s+(?=[^\S\n\r\u2028\u2029]$))(.+)$/i.exec(text);
  if (span) return `within ${span[2]}`;
  return `before ${text.replace(/^(by|before|on|until|till|no later than|due)\s+/i, "")}`;
}
