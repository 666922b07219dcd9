"""One module per page: each builds what its template shows from the services."""
