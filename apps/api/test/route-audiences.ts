import type { PermissionSlug } from "@parlons/contract";

/**
 * Who may call each operation of the API, by operationId: written here, apart from the routes,
 * and reviewed on its own. The access-matrix test calls every route as seven kinds of caller and
 * compares what each gets with this table (not with the rule the route declares), and fails when
 * a route is missing here or a name here is no route. A route added to the API needs its line
 * here; a line changed here is a change of who may do what, and is reviewed as such.
 *
 * - "public": anyone, signed in or not;
 * - "signed-in": any signed-in user of an active account;
 * - a permission slug: signed-in users holding it;
 * - { owner, staff }: the user the object belongs to (the customer of the test who owns the
 *   `owner` object), or staff holding `staff` (none: the owner only).
 * The comment of each line is the route, for the reader.
 */
export type Audience =
  | "public"
  | "signed-in"
  | PermissionSlug
  | { readonly owner: string; readonly staff?: PermissionSlug };

export const ROUTE_AUDIENCES: Readonly<Record<string, Audience>> = {
  getHealth: "public", // GET /health
  getReadiness: "public", // GET /health/ready
  selfRegister: "public", // POST /v1/user/self-register
  resendActivationMail: "public", // POST /v1/user/resend-activation
  activateAccount: "public", // GET /v1/user/account-activate/:token
  signIn: "public", // POST /v1/user/authenticate
  refreshSession: "public", // POST /v1/auth/refresh
  signOut: "public", // GET /v1/auth/logout
  unlockAccount: "public", // POST /v1/auth/unlock (the mailed token is the credential)
  requestPasswordReset: "public", // POST /v1/auth/forgot-password
  checkPasswordResetToken: "public", // POST /v1/user/checkPasswordResetToken
  resetPassword: "public", // POST /v1/user/reset
  resetForgottenPassword: "public", // POST /v1/auth/reset-forgot-password
  changePassword: "signed-in", // POST /v1/auth/change-password
  checkEmailExists: "public", // POST /v1/validations/email-exists
  checkUsernameExists: "public", // POST /v1/validations/username-exists
  listSocialProviders: "public", // GET /v1/auth/providers
  startSocialSignIn: "public", // GET /v1/auth/oauth/:provider
  completeSocialSignIn: "public", // GET /v1/auth/oauth/:provider/callback
  exchangeSocialTicket: "public", // POST /v1/auth/social-login/:provider
  verifySecondFactor: "public", // POST /v1/auth/second-factor/verify (a sign-in's ticket)
  startSecondFactorSetupAtSignIn: "public", // POST /v1/auth/second-factor/setup (a sign-in's ticket)
  confirmSecondFactorSetupAtSignIn: "public", // POST /v1/auth/second-factor/setup/confirm
  getMyTwoFactor: "signed-in", // GET /v1/user/me/two-factor
  startTotpSetup: "signed-in", // POST /v1/user/me/two-factor/totp/setup
  enableTotp: "signed-in", // POST /v1/user/me/two-factor/totp/enable
  disableTotp: "signed-in", // POST /v1/user/me/two-factor/totp/disable
  renewRecoveryCodes: "signed-in", // POST /v1/user/me/two-factor/recovery-codes
  listMySessions: "signed-in", // GET /v1/user/me/sessions
  endMySession: "signed-in", // DELETE /v1/user/me/sessions/:id (404 unless the session is the caller's)
  endMyOtherSessions: "signed-in", // POST /v1/user/me/sessions/end-others
  startPasskeySignIn: "public", // POST /v1/auth/passkey/options (a challenge, nothing else)
  signInWithPasskey: "public", // POST /v1/auth/passkey/verify (the passkey's signature is the credential)
  startPasskeySecondFactor: "public", // POST /v1/auth/second-factor/passkey/options (a sign-in's ticket)
  verifyPasskeySecondFactor: "public", // POST /v1/auth/second-factor/passkey/verify (ticket + passkey)
  startPasskeySetupAtSignIn: "public", // POST /v1/auth/second-factor/setup/passkey/options (a sign-in's ticket)
  registerPasskeyAtSignIn: "public", // POST /v1/auth/second-factor/setup/passkey (ticket + new passkey)
  listMyPasskeys: "signed-in", // GET /v1/user/me/passkeys
  startPasskeyRegistration: "signed-in", // POST /v1/user/me/passkeys/options
  registerPasskey: "signed-in", // POST /v1/user/me/passkeys
  renamePasskey: "signed-in", // PATCH /v1/user/me/passkeys/:id (the caller's own only: 404 otherwise)
  removePasskey: "signed-in", // DELETE /v1/user/me/passkeys/:id (the caller's own only: 404 otherwise)
  getCurrentUser: "signed-in", // GET /v1/user/me
  getCurrentUserAlias: "signed-in", // GET /v1/users/me
  updateProfile: { owner: "profile", staff: "users.manage" }, // PUT /v1/user/profile/:id
  listUsers: "users.read", // POST /v1/users
  listCustomers: "users.read", // POST /v1/users/customers
  getUser: "users.read", // GET /v1/users/:id
  createUser: "users.manage", // POST /v1/users/add
  createCustomer: "users.manage", // POST /v1/users/signup
  approveUser: "users.manage", // POST /v1/users/user-approve
  updateUserStatus: "users.manage", // POST /v1/users/status/update
  updateUser: "users.manage", // POST /v1/users/update/:id
  listRoles: "roles.manage", // GET /v1/api/role
  listPermissions: "roles.manage", // GET /v1/api/permission
  createRole: "roles.manage", // POST /v1/api/role
  deleteRole: "roles.manage", // DELETE /v1/api/:id
  getSettings: "public", // GET /v1/settings
  updateSettings: "settings.manage", // POST /v1/settings
  listPlans: "plans.manage", // GET /v1/plans
  listActivePlans: "public", // GET /v1/plans/active
  getPlan: "public", // GET /v1/plans/single/:id
  createPlan: "plans.manage", // POST /v1/plans
  updatePlan: "plans.manage", // PUT /v1/plans/:id
  deletePlan: "plans.manage", // DELETE /v1/plans/:id
  listPaymentProviders: "public", // GET /v1/billing/providers
  getTrialEligibility: "signed-in", // GET /v1/billing/trial
  subscribeToPlan: "plans.subscribe", // POST /v1/customer-plan
  getCustomerPlanByPlan: { owner: "user", staff: "customer-plans.manage" }, // GET /v1/customer-plan/by-plan-id/:id
  refreshCustomerPlanStatus: { owner: "customer plan", staff: "customer-plans.manage" }, // GET /v1/customer-plan/update-status/:id
  checkCustomerPlanCancellation: { owner: "customer plan", staff: "customer-plans.manage" }, // GET /v1/customer-plan/plan-check-cancel/:id
  updateCustomerPlanStatus: { owner: "customer plan", staff: "customer-plans.manage" }, // POST /v1/customer-plan/update-plan-status
  updateLastPayment: { owner: "customer plan", staff: "customer-plans.manage" }, // POST /v1/customer-plan/update-last-payment
  hasValidProPlan: { owner: "user", staff: "customer-plans.manage" }, // GET /v1/customer-plan/has-valid-pro-plan
  getLatestValidCustomerPlan: { owner: "user", staff: "customer-plans.manage" }, // GET /v1/customer-plan/valid-latest
  cancelCustomerPlan: { owner: "customer plan", staff: "customer-plans.manage" }, // POST /v1/customer-plan/cancel/:id
  listPayments: { owner: "user", staff: "customer-plans.manage" }, // GET /v1/customer-plan/payments
  getReceipt: { owner: "receipt", staff: "customer-plans.manage" }, // GET /v1/receipts/:id
  getReceiptPdf: { owner: "receipt", staff: "customer-plans.manage" }, // GET /v1/receipts/:id/pdf
  approveDemoPayment: { owner: "customer plan" }, // POST /v1/customer-plan/demo/:id/approve
  declineDemoPayment: { owner: "customer plan" }, // POST /v1/customer-plan/demo/:id/decline
  startPurchase: "plans.subscribe", // POST /v1/purchases
  listMyPurchases: { owner: "user", staff: "customer-plans.manage" }, // GET /v1/purchases
  listPurchases: "customer-plans.manage", // GET /v1/purchases/all
  getPurchase: { owner: "purchase", staff: "customer-plans.manage" }, // GET /v1/purchases/:id
  capturePurchase: { owner: "purchase", staff: "customer-plans.manage" }, // POST /v1/purchases/:id/capture
  approveDemoPurchase: { owner: "purchase" }, // POST /v1/purchases/:id/demo/approve
  declineDemoPurchase: { owner: "purchase" }, // POST /v1/purchases/:id/demo/decline
  refundPurchase: "customer-plans.manage", // POST /v1/purchases/:id/refund
  listCoupons: "plans.manage", // GET /v1/coupons
  createCoupon: "plans.manage", // POST /v1/coupons
  updateCoupon: "plans.manage", // PUT /v1/coupons/:id
  deleteCoupon: "plans.manage", // DELETE /v1/coupons/:id
  getSalesReport: "customer-plans.manage", // GET /v1/sales
  getSalesCsv: "customer-plans.manage", // GET /v1/sales/csv
  quoteCoupon: "plans.subscribe", // GET /v1/coupons/quote
  receivePaypalWebhook: "public", // POST /v1/billing/webhooks/paypal
  listActiveCourses: "public", // GET /v1/courses/active
  listPopularCourses: "public", // GET /v1/courses/popular
  getCourse: "public", // GET /v1/courses/single/:id
  getCourseOverview: "signed-in", // GET /v1/courses/customer/overview/:id
  getLearnerProgress: "signed-in", // GET /v1/courses/customer/progress
  listCourses: "courses.manage", // GET /v1/courses
  createCourse: "courses.manage", // POST /v1/courses
  updateCourse: "courses.manage", // PUT /v1/courses/:id
  setCoursePopular: "courses.manage", // PUT /v1/courses/popular-unpopular/:id
  publishCourse: "courses.manage", // POST /v1/courses/:id/publish
  unpublishCourse: "courses.manage", // POST /v1/courses/:id/unpublish
  deleteCourse: "courses.manage", // DELETE /v1/courses/:id
  listLessons: "public", // GET /v1/courses/:courseId/lessons
  listActiveLessons: "public", // POST /v1/courses/:courseId/lessons/active
  saveLessonProgress: "signed-in", // POST /v1/courses/:courseId/lessons/done-customer
  createLesson: "lessons.manage", // POST /v1/courses/:courseId/lessons
  updateLesson: "lessons.manage", // PUT /v1/courses/:courseId/lessons/:id
  listLessonCues: "lessons.manage", // GET /v1/courses/:courseId/lessons/:id/cues
  replaceLessonCues: "lessons.manage", // PUT /v1/courses/:courseId/lessons/:id/cues
  alignLesson: "lessons.manage", // POST /v1/courses/:courseId/lessons/:id/align
  getLessonAlignment: "lessons.manage", // GET /v1/courses/:courseId/lessons/:id/align
  proposeLessonLines: "lessons.manage", // POST /v1/courses/:courseId/lessons/:id/propose-lines
  getLessonLinesProposal: "lessons.manage", // GET /v1/courses/:courseId/lessons/:id/propose-lines
  exportCourseTranslations: "lessons.manage", // GET /v1/courses/:courseId/translations
  importCourseTranslations: "lessons.manage", // POST /v1/courses/:courseId/translations
  importCourseFiles: "lessons.manage", // POST /v1/courses/:courseId/imports
  updateLessonColumn: "lessons.manage", // PUT /v1/courses/:courseId/lessons/update-by-column/:id
  updateLessonLinks: "lessons.manage", // PUT /v1/courses/:courseId/lessons/update-links/:id
  deleteLesson: "lessons.manage", // DELETE /v1/courses/:courseId/lessons/:id
  uploadLessonFile: "lessons.manage", // POST /v1/courses/:courseId/lessons/file/upload
  listDueReviews: "signed-in", // GET /v1/review/due
  listGlossaryEntries: "lessons.manage", // GET /v1/courses/:courseId/glossary
  createGlossaryEntry: "lessons.manage", // POST /v1/courses/:courseId/glossary
  updateGlossaryEntry: "lessons.manage", // PUT /v1/courses/:courseId/glossary/:id
  deleteGlossaryEntry: "lessons.manage", // DELETE /v1/courses/:courseId/glossary/:id
  importGlossary: "lessons.manage", // POST /v1/courses/:courseId/glossary/import
  suggestGlossaryEntries: "lessons.manage", // GET /v1/courses/:courseId/glossary/suggestions
  lookUpWord: "signed-in", // GET /v1/lessons/:lessonId/words/lookup (and the lesson opens: mayOpen)
  addWordCard: "signed-in", // POST /v1/lessons/:lessonId/words (and the lesson opens: mayOpen)
  listMyWords: "signed-in", // GET /v1/words
  countMyWords: "signed-in", // GET /v1/words/counts
  gradeReview: "signed-in", // POST /v1/review/grade
  addReviewCard: "signed-in", // POST /v1/review/cards
  removeReviewCard: "signed-in", // DELETE /v1/review/cards/:id
  getReviewStats: "signed-in", // GET /v1/review/stats
  getPracticeSession: "signed-in", // GET /v1/practice/session
  recordPracticeResult: "signed-in", // POST /v1/practice/results
  getHandsFreeSession: "signed-in", // GET /v1/practice/hands-free
  gradeHandsFreeSession: "signed-in", // POST /v1/practice/hands-free/grades
  getPushStatus: "signed-in", // GET /v1/push
  subscribeToPush: "signed-in", // POST /v1/push/subscriptions
  unsubscribeFromPush: "signed-in", // POST /v1/push/unsubscribe (the caller's own browsers only)
  getPodcastFeedStatus: "signed-in", // GET /v1/podcast/feed
  rotatePodcastFeed: "signed-in", // POST /v1/podcast/feed
  revokePodcastFeed: "signed-in", // DELETE /v1/podcast/feed
  getPodcastFeed: "public", // GET /v1/podcast/feed/:token (the secret in the URL is the credential)
  getPodcastEpisodeTranscript: "public", // GET /v1/podcast/items/:feedId/:lessonId/transcript.vtt (signed URL)
  getPodcastEpisodeChapters: "public", // GET /v1/podcast/items/:feedId/:lessonId/chapters.json (signed URL)
  listMyCertificates: "signed-in", // GET /v1/certificates/mine
  verifyCertificate: "public", // GET /v1/certificates/verify/:code
  getCertificate: { owner: "certificate", staff: "certificates.manage" }, // GET /v1/certificates/:id
  getCertificatePdf: { owner: "certificate", staff: "certificates.manage" }, // GET /v1/certificates/:id/pdf
  listCertificates: "certificates.manage", // GET /v1/certificates
  revokeCertificate: "certificates.manage", // POST /v1/certificates/:id/revoke
  getAnalytics: "analytics.read", // GET /v1/analytics
  getStaffOverview: "dashboard.admin", // GET /v1/analytics/overview (each figure: its page's permission)
  getAnalyticsCsv: "analytics.read", // GET /v1/analytics/csv
  getCourseLineDifficulty: "analytics.read", // GET /v1/analytics/courses/:courseId/lines
  refreshAnalytics: "analytics.read", // POST /v1/analytics/refresh
  keepRecording: "signed-in", // POST /v1/recordings
  listRecordings: "signed-in", // GET /v1/recordings
  getRecordingAudio: "signed-in", // GET /v1/recordings/:id/audio
  deleteRecording: "signed-in", // DELETE /v1/recordings/:id
  getHabitSummary: "signed-in", // GET /v1/habit
  updateHabitSettings: "signed-in", // PUT /v1/habit/settings
  recordListening: "signed-in", // POST /v1/habit/listening
  recordStudySession: "signed-in", // POST /v1/habit/sessions
  uploadMedia: "media.upload", // POST /v1/medias/file/upload
  listMailTemplates: "mail.manage", // GET /v1/email-templates
  listActiveMailTemplates: "mail.manage", // GET /v1/email-templates/active
  previewMailTemplate: "mail.manage", // POST /v1/email-templates/preview
  getMailTemplate: "mail.manage", // GET /v1/email-templates/:id
  createMailTemplate: "mail.manage", // POST /v1/email-templates
  updateMailTemplate: "mail.manage", // PUT /v1/email-templates/:id
  deleteMailTemplate: "mail.manage", // DELETE /v1/email-templates/:id
  listCampaigns: "mail.manage", // GET /v1/send-mail
  searchCampaigns: "mail.manage", // POST /v1/send-mail/pagination
  countAudience: "mail.manage", // POST /v1/send-mail/count
  createCampaign: "mail.manage", // POST /v1/send-mail
  sendCampaign: "mail.manage", // POST /v1/send-mail/send
  sendCampaignTest: "mail.manage", // POST /v1/send-mail/test
  getCampaign: "mail.manage", // GET /v1/send-mail/:id
  openUnsubscribeLink: "public", // GET /v1/unsubscribe/:token
  unsubscribeOneClick: "public", // POST /v1/unsubscribe/:token
  getUnsubscribeStatus: "public", // GET /v1/unsubscribe/:token/status
  resubscribe: "public", // POST /v1/unsubscribe/:token/resubscribe
  getMailPreferences: "signed-in", // GET /v1/user/me/mail-preferences
  updateMailPreferences: "signed-in", // PUT /v1/user/me/mail-preferences
  listEvents: "public", // GET /v1/events
  getEvent: "public", // GET /v1/events/:id
  getEventIcs: "public", // GET /v1/events/:id/ics
  createEvent: "events.manage", // POST /v1/events
  updateEvent: "events.manage", // PUT /v1/events/:id
  deleteEvent: "events.manage", // DELETE /v1/events/:id
  listEventRegistrations: "events.manage", // GET /v1/events/:id/registrations
  bookEvent: "events.book", // POST /v1/registrations/booking
  listMyRegistrations: "signed-in", // GET /v1/registrations/mine
  getRegistration: { owner: "registration", staff: "events.manage" }, // GET /v1/registrations/single/:id
  cancelRegistration: { owner: "registration", staff: "events.manage" }, // POST /v1/registrations/cancel/:id
  listConfigs: "configs.manage", // GET /v1/configs
  getConfig: "configs.manage", // GET /v1/configs/:key
  createConfig: "configs.manage", // POST /v1/configs
  updateConfig: "configs.manage", // PUT /v1/configs/:key
  deleteConfig: "configs.manage", // DELETE /v1/configs/:key
  listNotifications: "signed-in", // GET /v1/notifications
  markAllNotificationsRead: "signed-in", // POST /v1/notifications/read-all
  markNotificationRead: "signed-in", // POST /v1/notifications/:id/read
  listAuditEntries: "audit.read", // GET /v1/audit
  exportMyData: "signed-in", // POST /v1/user/me/data-export
  listMyDataRequests: "signed-in", // GET /v1/user/me/data-requests
  downloadDataExport: "public", // GET /v1/data-exports/:token
  deleteMyAccount: "signed-in", // POST /v1/user/me/delete
  listDataRequests: "privacy.manage", // GET /v1/data-requests
  processDataRequest: "privacy.manage", // POST /v1/data-requests/:id/process
  getLegalPage: "public", // GET /v1/legal/:page
};
