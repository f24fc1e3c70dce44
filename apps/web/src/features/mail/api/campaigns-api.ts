import type {
  CampaignListResponse,
  CampaignResponse,
  CampaignSendBody,
  CampaignTestBody,
  CampaignTestResponse,
  MailAudience,
  MailCampaign,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { courseListQuery } from "@/features/courses/api/course-queries";
import { api } from "@/lib/api";

type Data<T> = { message?: string; data: T };

/** `POST /v1/send-mail/pagination`: campaigns, latest first. */
/** The campaigns' query keys: a send reads every campaign view again. */
const campaignKeys = {
  all: ["campaigns"] as const,
  list: (page: number, pageSize: number) => ["campaigns", "list", page, pageSize] as const,
  one: (id: string) => ["campaigns", "one", id] as const,
  count: (audience: MailAudience) => ["campaigns", "count", audience] as const,
};

export const campaignsQuery = (page: number, pageSize = 10) =>
  queryOptions({
    queryKey: campaignKeys.list(page, pageSize),
    queryFn: ({ signal }) =>
      api<CampaignListResponse>("/v1/send-mail/pagination", {
        method: "POST",
        body: { page, pageSize, filters: {} },
        signal,
      }).then((r) => r.data),
    staleTime: 0,
  });

const finished = (campaign: MailCampaign | undefined) =>
  campaign !== undefined && (campaign.status === "SENT" || campaign.status === "FAILED");

/** `GET /v1/send-mail/{id}`, polled every second until the campaign is finished. */
export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: campaignKeys.one(id),
    queryFn: ({ signal }) =>
      api<CampaignResponse>(`/v1/send-mail/${encodeURIComponent(id)}`, { signal }).then(
        (r) => r.data.campaign,
      ),
    refetchInterval: (query) => (finished(query.state.data) ? false : 1000),
    staleTime: 0,
  });

/** `POST /v1/send-mail/count`: how many active users the audience reaches. */
export const audienceCountQuery = (audience: MailAudience) =>
  queryOptions({
    queryKey: campaignKeys.count(audience),
    queryFn: ({ signal }) =>
      api<Data<{ count: number }>>("/v1/send-mail/count", {
        method: "POST",
        body: { audience },
        signal,
      }).then((r) => r.data.count),
    staleTime: 0,
  });

/** `POST /v1/send-mail/send`: creates and queues a campaign in one step (202). */
export function useSendCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CampaignSendBody) =>
      api<CampaignResponse>("/v1/send-mail/send", { method: "POST", body, silent: true }).then(
        (r) => r.data.campaign,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

/**
 * `POST /v1/send-mail/test`: the draft to the caller's own address, marked as a test (202).
 * Changes no campaign, so nothing to refresh.
 */
export function useTestCampaign() {
  return useMutation({
    mutationFn: (body: CampaignTestBody) =>
      api<CampaignTestResponse>("/v1/send-mail/test", { method: "POST", body, silent: true }).then(
        (r) => r.data,
      ),
  });
}

/** Active courses for the audience picker (the public list: every mail manager may read it). */
export const audienceCoursesQuery = courseListQuery("active", { page: 1, pageSize: 100 });
