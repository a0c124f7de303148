/**
 * How an answer or a digest run shows its ranking: the section list (readable on a phone), a
 * native table of the whole ranking (`table`, `with table`), a bar chart of the top N by the
 * ranking metric (`chart`), or a pie of the stakeholder categories among the top N
 * (`chart categories`). Tables and charts always come with the list's fallback, because Slack
 * refuses those blocks where they have not been rolled out.
 */
export type Presentation = 'list' | 'table' | 'chart' | 'category_chart';
