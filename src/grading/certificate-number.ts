// Certificate numbers: 10 digits, the last a Luhn check digit (ISO/IEC 7812-1), so a mistyped
// number is refused without touching storage.

export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Double every second digit counting from the right of the number that will carry the check digit.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Digits of a certificate number, the check digit last. */
export const CERTIFICATE_DIGITS = 10;
const CERTIFICATE_PATTERN = new RegExp(`^\\d{${CERTIFICATE_DIGITS}}$`);

export function isCertificateNumber(value: string): boolean {
  const body = value.slice(0, CERTIFICATE_DIGITS - 1);
  return CERTIFICATE_PATTERN.test(value) && luhnCheckDigit(body) === Number(value[CERTIFICATE_DIGITS - 1]);
}

const BODY_RANGE = 900_000_000;
// Largest multiple of BODY_RANGE below 2^32: values at or above it would bias the draw.
const UNBIASED_LIMIT = Math.floor(2 ** 32 / BODY_RANGE) * BODY_RANGE;

export function generateCertificateNumber(): string {
  let value: number;
  do {
    value = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  } while (value >= UNBIASED_LIMIT);
  // Nine digits, the first never 0 so the number reads as ten digits everywhere.
  const body = String(100_000_000 + (value % BODY_RANGE));
  return `${body}${luhnCheckDigit(body)}`;
}

/** The certificate's public page: PUBLIC_BASE_URL (or the request's origin) + /c/{number}. */
export function certificateUrl(config: { PUBLIC_BASE_URL?: string }, origin: string, number: string): string {
  return `${(config.PUBLIC_BASE_URL ?? origin).replace(/\/$/, "")}/c/${number}`;
}
