/**
 * An HTTP-date (RFC 9110, 5.6.7) as milliseconds since the epoch, or undefined for any other text. IMF-fixdate, and the
 * two obsolete forms a recipient must still accept (rfc850-date, asctime-date), each read as the IMF-fixdate it names;
 * that date must print back as itself, so a date that does not exist (31 Feb) or a wrong weekday is no date, where
 * `Date.parse` guesses one ("-5" reads as a day in 2001).
 */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  // Stryker disable next-line ArrayDeclaration: equivalent; the pattern skips the first element, so text that is no IMF-fixdate reads every field as undefined either way.
  let [, weekday, day, month, year, time] = /^(\w{3}), (\d\d) (\w{3}) (\d{4}) (\d\d:\d\d:\d\d) GMT$/.exec(text) ?? [];
  let rfc850 = /^(\w{3})\w{3,6}, (\d\d)-(\w{3})-(\d\d) (\d\d:\d\d:\d\d) GMT$/.exec(text);
  const asctime = /^(\w{3}) (\w{3}) ([ \d]\d) (\d\d:\d\d:\d\d) (\d{4})$/.exec(text);
  if (rfc850) {
    [, weekday, day, month, year, time] = rfc850;
    // A two-digit year that would be more than 50 years ahead is in the past century (RFC 9110, 5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let full = thisYear - (thisYear % 100) + Number(year);
    if (full > thisYear + 50) full -= 100;
    year = String(full);
  }
  if (asctime) [, weekday, month, day, time, year] = asctime;
  const imf = `${weekday}, ${day?.replace(" ", "0")} ${month} ${year} ${time} GMT`;
  const ms = Date.parse(imf);
  return weekday && new Date(ms).toUTCString() === imf ? ms : undefined;
}
