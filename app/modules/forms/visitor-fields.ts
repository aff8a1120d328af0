import { emailAddress, requiredText } from "./fields";
import { REQUIRED_MESSAGE } from "./plain-checks";
import { EMAIL_MESSAGE, LIMITS, MESSAGES } from "./visitor-limits";

/** The name and e-mail every pitch page form asks for. */
export const visitorName = requiredText(LIMITS.name, MESSAGES.nameTooLong);
export const visitorEmail = emailAddress({ required: REQUIRED_MESSAGE, tooLong: MESSAGES.emailTooLong, invalid: EMAIL_MESSAGE });
