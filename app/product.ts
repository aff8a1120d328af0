/** The product's fixed public facts. The operator's (support contact, address, hours, legal dates) are configuration: `useOperatorSettings`. */
export const PRODUCT_NAME = "PitchQR";
export const FEEDBACK_EMAIL = "feedback@pitchqr.app";
export const PARTNERSHIPS_EMAIL = "partners@pitchqr.app";
export const PRIVACY_EMAIL = "privacy@pitchqr.app";
export const LEGAL_EMAIL = "legal@pitchqr.app";
