/**
 * The saved list's client, loaded by address by the enhancement module: on `/saved` it draws the list,
 * on a pitch page it runs Save once tapped, and on both it sends saves made offline. Built apart from the
 * enhancement module (see vite.config.ts), so the pitch page still loads one script.
 */
export { showSavedList } from "./saved-page";
export { sendPendingSaves, toggleSave } from "./saved-pitches";
