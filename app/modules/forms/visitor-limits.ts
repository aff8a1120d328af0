/**
 * The limits and messages of the pitch page's visitor fields, for every form that
 * asks a person's name and e-mail. Zod-free: the anonymous pitch page's module checks its forms with them too.
 */
export const EMAIL_MESSAGE = "Please enter a valid email address";

export const LIMITS = { name: 100, email: 255, url: 2048, note: 1000, message: 1000, tierId: 64 } as const;

export const MESSAGES = {
  nameTooLong: "Name must be less than 100 characters",
  emailTooLong: "Email must be less than 255 characters",
  linkedinUrl: "Please enter a valid LinkedIn URL (starting with https://)",
  noteTooLong: "Note must be less than 1000 characters",
  messageTooLong: "Message must be less than 1000 characters",
  unknownRoleTag: "Unknown role tag",
  tooManyRoleTags: "Too many role tags",
  consent: "Please agree to receive updates.",
  tierNotFound: "Tier not found",
} as const;
