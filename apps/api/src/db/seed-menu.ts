import { PERMISSIONS } from "@parlons/contract";

export interface ModuleSeed {
  title: string;
  titleFr: string;
  titleEs: string;
  path: string;
  icon: string;
  permission: string | null;
  external?: boolean;
  children?: ModuleSeed[];
}

/** The menu tree (three levels at most); each entry is shown to users holding its permission. */
export const MENU: ModuleSeed[] = [
  {
    title: "Dashboard",
    titleFr: "Tableau de bord",
    titleEs: "Panel",
    path: "/dashboard",
    icon: "dashboard",
    permission: null,
  },
  { title: "Courses", titleFr: "Cours", titleEs: "Cursos", path: "/courses", icon: "book", permission: null },
  {
    title: "Events",
    titleFr: "Événements",
    titleEs: "Eventos",
    path: "/events",
    icon: "calendar",
    permission: null,
  },
  {
    title: "Review",
    titleFr: "Révision",
    titleEs: "Repaso",
    path: "/review",
    icon: "review",
    permission: null,
  },
  {
    title: "My subscription",
    titleFr: "Mon abonnement",
    titleEs: "Mi suscripción",
    path: "/billing",
    icon: "wallet",
    permission: PERMISSIONS.subscribe,
  },
  {
    title: "Pricing",
    titleFr: "Tarifs",
    titleEs: "Precios",
    path: "/pricing",
    icon: "tag",
    permission: PERMISSIONS.subscribe,
  },
  {
    title: "Administration",
    titleFr: "Administration",
    titleEs: "Administración",
    path: "/admin",
    icon: "setting",
    permission: PERMISSIONS.dashboardAdmin,
    children: [
      {
        title: "New course",
        titleFr: "Nouveau cours",
        titleEs: "Nuevo curso",
        path: "/courses/create",
        icon: "plus",
        permission: PERMISSIONS.coursesManage,
      },
      {
        title: "Plans",
        titleFr: "Formules",
        titleEs: "Planes",
        path: "/plans",
        icon: "tag",
        permission: PERMISSIONS.plansManage,
      },
      {
        title: "Users",
        titleFr: "Utilisateurs",
        titleEs: "Usuarios",
        path: "/User",
        icon: "team",
        permission: PERMISSIONS.usersRead,
        children: [
          {
            title: "All users",
            titleFr: "Tous les utilisateurs",
            titleEs: "Todos los usuarios",
            path: "/User",
            icon: "team",
            permission: PERMISSIONS.usersRead,
          },
          {
            title: "Customers",
            titleFr: "Clients",
            titleEs: "Clientes",
            path: "/User/customers",
            icon: "user",
            permission: PERMISSIONS.usersRead,
          },
          {
            title: "Add a user",
            titleFr: "Ajouter un utilisateur",
            titleEs: "Añadir un usuario",
            path: "/User/create",
            icon: "user-add",
            permission: PERMISSIONS.usersManage,
          },
          {
            title: "Roles",
            titleFr: "Rôles",
            titleEs: "Roles",
            path: "/User/roles",
            icon: "safety",
            permission: PERMISSIONS.rolesManage,
          },
        ],
      },
      {
        title: "Mail",
        titleFr: "Courriels",
        titleEs: "Correo",
        path: "/mail",
        icon: "mail",
        permission: PERMISSIONS.mailManage,
        children: [
          {
            title: "Templates",
            titleFr: "Modèles",
            titleEs: "Plantillas",
            path: "/mail/templates",
            icon: "file-text",
            permission: PERMISSIONS.mailManage,
          },
          {
            title: "Send mail",
            titleFr: "Envoyer",
            titleEs: "Enviar un correo",
            path: "/mail/send",
            icon: "send",
            permission: PERMISSIONS.mailManage,
          },
        ],
      },
      {
        title: "Settings",
        titleFr: "Paramètres",
        titleEs: "Ajustes",
        path: "/setting",
        icon: "control",
        permission: PERMISSIONS.settingsManage,
      },
      {
        title: "Manage events",
        titleFr: "Gérer les événements",
        titleEs: "Gestionar los eventos",
        path: "/events/manage",
        icon: "calendar",
        permission: PERMISSIONS.eventsManage,
      },
      {
        title: "Configuration",
        titleFr: "Configuration",
        titleEs: "Configuración",
        path: "/configs",
        icon: "control",
        permission: PERMISSIONS.configsManage,
      },
      {
        title: "Audit log",
        titleFr: "Journal d'audit",
        titleEs: "Registro de auditoría",
        path: "/audit",
        icon: "audit",
        permission: PERMISSIONS.auditRead,
      },
      {
        title: "Data requests",
        titleFr: "Demandes RGPD",
        titleEs: "Solicitudes RGPD",
        path: "/data-requests",
        icon: "safety",
        permission: PERMISSIONS.privacyManage,
      },
      {
        title: "Analytics",
        titleFr: "Statistiques",
        titleEs: "Estadísticas",
        path: "/analytics",
        icon: "line-chart",
        permission: PERMISSIONS.analyticsRead,
      },
      {
        title: "Certificates",
        titleFr: "Certificats",
        titleEs: "Certificados",
        path: "/certificates",
        icon: "safety-certificate",
        permission: PERMISSIONS.certificatesManage,
      },
      {
        title: "API documentation",
        titleFr: "Documentation de l'API",
        titleEs: "Documentación de la API",
        path: "/api/docs",
        icon: "api",
        permission: PERMISSIONS.dashboardAdmin,
        external: true,
      },
    ],
  },
  {
    title: "Profile",
    titleFr: "Profil",
    titleEs: "Perfil",
    path: "/profile",
    icon: "user",
    permission: null,
  },
];
