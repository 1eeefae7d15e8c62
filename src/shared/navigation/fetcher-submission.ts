/** A fetcher's submission to a page's action (POST: the only method page actions take). */
export interface FetcherSubmission {
  formData: FormData;
}
