/**
 * Channel and user mentions that only ever hold a Slack id, and words in their place otherwise.
 * Ids are letters and digits only: anything else (a stored value gone wrong, an id from elsewhere)
 * would put arbitrary text inside a `<#…>` or `<@…>` token.
 */
const slackId = /^[A-Z0-9]{2,20}$/;

/** Whether `id` can go in a mention token as it is. */
export function isSlackId(id: string | undefined): id is string {
  return id !== undefined && slackId.test(id);
}

/** `<#C1>`, which Slack shows as the channel's name; `otherwise` for an id that is not one. */
export function channelMention(id: string | undefined, otherwise: string): string {
  return isSlackId(id) ? `<#${id}>` : otherwise;
}

/** `<@U1>`, which Slack shows as the person's name; `otherwise` for an id that is not one. */
export function userMention(id: string | undefined, otherwise: string): string {
  return isSlackId(id) ? `<@${id}>` : otherwise;
}
