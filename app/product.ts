/** The product's public facts, shown in the shell, the static pages and e-mails. */
export const PRODUCT_NAME = "PitchQR";
export const SUPPORT_EMAIL = "support@pitchqr.app";
export const FEEDBACK_EMAIL = "feedback@pitchqr.app";
export const PARTNERSHIPS_EMAIL = "partners@pitchqr.app";
export const PRIVACY_EMAIL = "privacy@pitchqr.app";
export const LEGAL_EMAIL = "legal@pitchqr.app";
export const COMPANY_LOCATION = "San Francisco, California";
export const LEGAL_EFFECTIVE_DATE = "October 14, 2025";
