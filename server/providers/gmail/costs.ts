/** Gmail's published quota units per method; the per-account bucket spends these before each call. */
export const GMAIL_COSTS = {
  getProfile: 1,
  labelsList: 1,
  labelsGet: 1,
  labelsCreate: 5,
  historyList: 2,
  messagesList: 5,
  messagesGet: 5,
  messagesModify: 5,
  messagesTrash: 5,
  attachmentsGet: 5,
  batchModify: 50,
  messagesSend: 100,
  draftsCreate: 10,
  draftsUpdate: 15,
  draftsGet: 5,
  draftsList: 5,
  draftsDelete: 10,
  draftsSend: 100,
  threadsGet: 10,
  watch: 100,
  stop: 50,
} as const;

/** Gmail's default per-user limit. */
export const GMAIL_UNITS_PER_MINUTE = 15_000;
