/**
 * What the workspace and invitation APIs answer and the switcher, members page and invite page
 * render (isomorphic). No token or token hash ever appears in these shapes.
 */

/** A workspace the signed-in user belongs to, with their role in it. */
export interface WorkspaceView {
  /** Workspace id. */
  id: string;
  /** Display name. */
  name: string;
  /** Unique URL name. */
  slug: string;
  /** The user's role there (owner, admin, editor or viewer). */
  role: string;
  /** True for the workspace the session acts in. */
  current: boolean;
  /** Whether the role may open Settings there (owners and admins): the header links to it only then. */
  manageSettings: boolean;
}

/** A pending invitation as the members page lists it. */
export interface InvitationView {
  /** Invitation id (not the token). */
  id: string;
  /** The only e-mail that may accept, or null: anyone with the link. */
  email: string | null;
  /** Role the invitee gets. */
  role: string;
  /** ISO time after which the link no longer works. */
  expiresAt: string;
  /** ISO creation time. */
  createdAt: string;
  /** E-mail of whoever created it. */
  createdBy: string;
}

/** What the invite page shows before accepting (anyone holding the link may see it). */
export interface InvitationPreview {
  /** The workspace joined. */
  workspaceName: string;
  /** Role the invitee gets. */
  role: string;
  /** The only e-mail that may accept, or null. */
  email: string | null;
  /** ISO expiry. */
  expiresAt: string;
}
