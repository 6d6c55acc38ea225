/** Who signed in, in provider-neutral terms. */
export interface ProviderIdentity {
  /** Google `sub` or Graph `/me.id`: stable even if the address changes. */
  providerAccountId: string;
  email: string;
  displayName: string;
}
