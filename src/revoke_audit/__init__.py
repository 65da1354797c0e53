"""revoke-audit: find uncaught revokes and defective tricks in bridge hand records."""
