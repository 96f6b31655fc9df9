/**
 * An HTTP-date (RFC 9110, 5.6.7) as milliseconds since the epoch, or undefined for any other text. IMF-fixdate, and the
 * two obsolete forms a recipient must still accept (rfc850-date, asctime-date), each rewritten as the IMF-fixdate it
 * names; that date must print back as itself (29 characters: a year of four digits), so a date that does not exist
 * (31 Feb) or a wrong weekday is no date, where `Date.parse` guesses one ("-5" reads as a day in 2001).
 */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  // No anchors: a rewritten form with anything before or after it does not print back as itself (asctime's weekday
  // starts a word, so that its match cannot begin inside one and leave its first letters before the rewrite).
  const imf = text
    .replace(
      /(\w{3})\w{3,6}, (\d\d)-(\w{3})-(\d\d) /,
      (_, weekday: string, day: string, month: string, twoDigits: string) => {
        // A two-digit year that would be more than 50 years ahead is in the past century (RFC 9110, 5.6.7).
        const thisYear = new Date(now).getUTCFullYear();
        const year = thisYear - (thisYear % 100) + Number(twoDigits);
        return `${weekday}, ${day} ${month} ${year > thisYear + 50 ? year - 100 : year} `;
      },
    )
    .replace(
      /\b(\w{3}) (\w{3}) ([ \d]\d) (\d\d:\d\d:\d\d) (\d{4})/,
      (_, weekday: string, month: string, day: string, time: string, year: string) =>
        `${weekday}, ${day.replace(" ", "0")} ${month} ${year} ${time} GMT`,
    );
  const ms = Date.parse(imf);
  // "Invalid Date" prints back as itself too: the length tells it apart.
  return imf.length === 29 && new Date(ms).toUTCString() === imf ? ms : undefined;
}
