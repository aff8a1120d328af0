import { useMatches } from "react-router";
import { roleAllows, type ProjectAction, type ProjectRole } from "~/modules/access/roles";

/**
 * The signed-in user's role on the project a page shows (decision 61), from the `projectRole` its loader returns.
 * It only decides what the page offers; every function checks the role again on the server.
 */
export function useProjectRole(): ProjectRole {
  const matches = useMatches();
  for (const match of [...matches].reverse()) {
    const role = (match.data as { projectRole?: ProjectRole } | undefined)?.projectRole;
    if (role) return role;
  }
  return "viewer";
}

export function useProjectAllows(action: ProjectAction): boolean {
  return roleAllows(useProjectRole(), action);
}
