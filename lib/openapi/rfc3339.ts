const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * Whether a text is an RFC 3339 date-time (section 5.6), as `format: date-time` says: the offset's colon required
 * (`+0000` is ISO 8601's basic form, not RFC 3339), `T` and `Z` in either case (5.6, NOTE), a leap second only where
 * one can fall (23:59:60 UTC), every field in range. ajv-formats' own check takes `+0000`.
 */
export function isRfc3339DateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, sign, offsetHour = 0, offsetMinute = 0] = match
    .slice(1)
    .map((part, i) => (i === 6 ? part : Number(part ?? 0))) as [
    number,
    number,
    number,
    number,
    number,
    number,
    string | undefined,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth ||
    hour > 23 ||
    minute > 59 ||
    second > 60 ||
    offsetHour > 23 ||
    offsetMinute > 59
  )
    return false;
  if (second < 60) return true;
  // A leap second is the last second of a UTC day: 23:59:60 once the offset is taken off.
  const utcMinutes =
    (((hour * 60 + minute - (sign === "-" ? -1 : 1) * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}
